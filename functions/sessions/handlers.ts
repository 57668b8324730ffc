import { confirmEmailChange } from '#core/accounts/account-changes';
import { resendVerificationLink, verifyEmail } from '#core/accounts/email-verification';
import { forgotPassword, resetPassword } from '#core/accounts/password-changes';
import { register } from '#core/accounts/registration';
import { login, logout, sessionLifetimeMs } from '#core/accounts/sessions';
import { asksForJson } from '#core/http/accept';
import { handlersFor } from '#core/http/handlers';
import type { ResponseOf } from '#core/http/types';
import { config } from '#core/platform/config';
import { AccessDenied, ApiError } from '#core/platform/errors';
import { pageHeaders } from '#core/platform/html';
import { accountLinks } from '#core/users/account-mail';
import { clearedCookies, sessionCookies } from './cookies.ts';
import { linkPage, linkResultPage } from './link-pages.ts';
import type { sessionRoutes } from './routes.ts';

const overHttps = (headers: Record<string, string>) => headers['x-forwarded-proto'] !== 'http';

const linksFor = (baseUrl: string) => accountLinks(baseUrl, config().API_PREFIX);

/** The routes of a mailed link's button. */
type LinkButton = Extract<(typeof sessionRoutes)[number], { operationId: 'verifyEmail' | 'confirmEmailChange' }>;

/**
 * The button of a mailed link was pressed: what it did, as a page for the browser, or as
 * JSON for a client whose Accept asks for it. A refusal (invalid link, address taken) is a
 * page with its status for the browser too; the envelope for the JSON client.
 */
async function pressed(headers: Record<string, string>, title: string, act: () => Promise<string>): Promise<ResponseOf<LinkButton>> {
  const json = asksForJson(headers.accept);
  try {
    const message = await act();
    return json ? { status: 200, body: { message } } : { status: 200, html: linkResultPage(title, message), headers: pageHeaders };
  } catch (error) {
    if (json || !(error instanceof ApiError)) throw error;
    return { status: error.status, html: linkResultPage(title, error.message), headers: { ...error.headers, ...pageHeaders } };
  }
}

export const sessionHandlers = handlersFor<(typeof sessionRoutes)[number]>()({
  register: async ({ body, sourceIp, baseUrl }, deps) => {
    if (!config().REGISTRATION_ENABLED) throw new AccessDenied('Registration is closed on this service.');
    await register(deps, { name: body.name, email: body.email, password: body.password, sourceIp }, linksFor(baseUrl));
    // The same words for a new and a taken email: the answer must not tell them apart.
    return { status: 202, body: { message: 'Check your inbox: we mailed the address a link to verify it and go on.' } };
  },
  openVerificationLink: async ({ url }) => ({ status: 200, html: linkPage('verify', url.pathname), headers: pageHeaders }),
  verifyEmail: ({ params, headers }, deps) =>
    pressed(headers, 'Email verification', async () =>
      (await verifyEmail(deps, params.id, params.token)).already
        ? 'Your email address is verified already.'
        : 'Your email address is verified.',
    ),
  sendVerificationLink: async ({ principal, baseUrl }, deps) =>
    (await resendVerificationLink(deps, principal.userId, linksFor(baseUrl)))
      ? { status: 202, body: { message: 'A new verification link is on its way.' } }
      : { status: 200, body: { message: 'Your email address is verified already.' } },
  openEmailChangeLink: async ({ url }) => ({ status: 200, html: linkPage('change', url.pathname), headers: pageHeaders }),
  confirmEmailChange: ({ params, headers }, deps) =>
    pressed(headers, 'Email change', async () =>
      (await confirmEmailChange(deps, params.id, params.token)).already
        ? 'This address is the email of your account already.'
        : 'Your email address has changed, and is verified.',
    ),
  forgotPassword: async ({ body, sourceIp, baseUrl }, deps) => {
    await forgotPassword(deps, { email: body.email, sourceIp }, linksFor(baseUrl));
    return { status: 202, body: { message: 'If an account uses this email, we have mailed it a link to reset the password.' } };
  },
  resetPassword: async ({ body }, deps) => {
    await resetPassword(deps, body);
    return { status: 200, body: { message: 'Your password has been reset; every session has ended. Log in with the new one.' } };
  },
  login: async ({ body, sourceIp, headers }, deps) => {
    const session = await login(deps, { ...body, sourceIp });
    return {
      status: 200,
      body: { data: session.user },
      cookies: sessionCookies(session.sessionId, session.xsrfToken, sessionLifetimeMs / 1000, overHttps(headers)),
    };
  },
  logout: async ({ principal, headers }, deps) => {
    await logout(deps, principal.credential.id);
    return { status: 204, cookies: clearedCookies(overHttps(headers)) };
  },
});
