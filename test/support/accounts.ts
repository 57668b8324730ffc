import { latestMailTo } from './mailbox.ts';
import { type Api, as, type Credential, login } from './sessions.ts';

/** The latest mail the runner wrote to `address`; throws if there is none. */
export async function mailTo(api: Api & { runner: { mailDir: string } }, address: string) {
  return latestMailTo(api.runner.mailDir, address);
}

/** The first absolute link in a mail's text part that matches `pattern`. */
export function linkIn(mail: { subject: string; text: string }, pattern: RegExp): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((candidate) => pattern.test(candidate));
  if (!link) throw new Error(`no link matching ${pattern} in mail "${mail.subject}"`);
  return link;
}

type MailApi = Api & { runner: { mailDir: string } };

/**
 * What a person does with a mailed link: opens it (GET: a page with a button) and presses
 * the button, which the browser sends as the page's form, urlencoded and empty, to the
 * form's action. Answers the press; `headers` are the browser's (Accept: JSON for an API client).
 */
export async function pressLink(api: Api, link: string, headers: Record<string, string> = {}) {
  const page = await api.call('GET', link, { key: '' });
  const action = /<form method="post" action="([^"]+)">/.exec(typeof page.body === 'string' ? page.body : '')?.[1];
  if (page.status !== 200 || !action)
    throw new Error(`the link ${link} answered ${page.status} without a form: ${JSON.stringify(page.body)}`);
  return api.call('POST', new URL(action.replaceAll('&amp;', '&'), link).href, {
    key: '',
    rawBody: '',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/** Opens the verification link last mailed to `email` and presses its button; throws unless that answers 200. */
export async function verifyByMail(api: MailApi, email: string): Promise<void> {
  const link = linkIn(await mailTo(api, email), /\/email\/verify\//);
  const pressed = await pressLink(api, link);
  if (pressed.status !== 200)
    throw new Error(`the verification link of ${email} answered ${pressed.status} ${JSON.stringify(pressed.body)}`);
}

/** POST {base_url}/register, the verification link opened, and a session: an account as its person makes one. */
export async function registerVerified(api: MailApi, input: { name: string; email: string; password: string }) {
  const registered = await api.call('POST', `${api.runner.origin}/register`, { key: '', body: input });
  if (registered.status !== 202)
    throw new Error(`register of ${input.email} answered ${registered.status} ${JSON.stringify(registered.body)}`);
  await verifyByMail(api, input.email);
  const { session } = await login(api, input.email, input.password);
  const userId: number = (await api.call('GET', '/user', as(session))).body.data.id;
  return { userId, session };
}

/**
 * A verified account made a member of the inviter's current workspace the only way there
 * is: invited with POST /users, then accepting.
 */
export async function joinAsMember(
  api: MailApi,
  inviter: Credential | undefined,
  input: { name: string; email: string; password: string; role?: 'admin' | 'member' },
) {
  const { role, ...registration } = input;
  const account = await registerVerified(api, registration);
  const body = { email: input.email, role: role ?? 'member' };
  const invited = await api.call('POST', '/users', inviter ? as(inviter, { body }) : { body });
  if (invited.status !== 202) throw new Error(`inviting ${input.email} answered ${invited.status} ${JSON.stringify(invited.body)}`);
  const workspaceId: string = invited.body.data.workspace_id;
  const accepted = await api.call('POST', `/user/invitations/${workspaceId}/accept`, as(account.session));
  if (accepted.status !== 200) throw new Error(`accepting for ${input.email} answered ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { ...account, workspaceId };
}
