import type { ApiAnswer, CallOptions } from './local-api.ts';

/** What the session helpers need of a test API (startTestApi or startTestApiOnTable). */
export interface Api {
  runner: { origin: string };
  call(method: string, path: string, options?: CallOptions): Promise<ApiAnswer>;
}

/** A credential as a client holds it. */
export type Credential = { type: 'api_key' | 'user_token'; bearer: string } | { type: 'session'; sessionId: string; xsrfToken: string };

export interface LoggedIn {
  answer: ApiAnswer;
  /** The Set-Cookie header values of the login answer, as sent. */
  setCookies: string[];
  session: Extract<Credential, { type: 'session' }>;
}

/** The value of cookie `name` among Set-Cookie header values. */
export function setCookieValue(setCookies: string[], name: string): string | undefined {
  const found = setCookies.find((c) => c.startsWith(`${name}=`));
  return found?.slice(name.length + 1).split(';')[0];
}

export async function register(api: Api, input: { name: string; email: string; password: string }): Promise<ApiAnswer> {
  return api.call('POST', `${api.runner.origin}/register`, { key: '', body: input });
}

/** POST {base_url}/login; throws unless it answers 200 with both cookies. */
export async function login(api: Api, email: string, password: string): Promise<LoggedIn> {
  const answer = await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email, password } });
  const setCookies = answer.headers.getSetCookie();
  const sessionId = setCookieValue(setCookies, 'session');
  const xsrfToken = setCookieValue(setCookies, 'XSRF-TOKEN');
  if (answer.status !== 200 || !sessionId || !xsrfToken) {
    throw new Error(
      `login of ${email} answered ${answer.status} ${JSON.stringify(answer.body)} with cookies ${JSON.stringify(setCookies)}`,
    );
  }
  return { answer, setCookies, session: { type: 'session', sessionId, xsrfToken } };
}

/**
 * Call options that present `credential`: a Bearer header, or the session cookies (and,
 * unless `xsrf` is false, the X-XSRF-TOKEN header a first-party script would echo).
 */
export function as(credential: Credential, options: CallOptions = {}, { xsrf = true } = {}): CallOptions {
  if (credential.type !== 'session') return { ...options, key: credential.bearer };
  return {
    ...options,
    key: '',
    headers: {
      Cookie: `session=${credential.sessionId}; XSRF-TOKEN=${credential.xsrfToken}`,
      ...(xsrf ? { 'X-XSRF-TOKEN': credential.xsrfToken } : {}),
      ...options.headers,
    },
  };
}

/** A user token minted with `credential` (a session or a token); throws unless 201. */
export async function mintUserToken(
  api: Api,
  credential: Credential,
  body: { name: string; abilities?: string[]; expires_at?: string | null },
): Promise<{ id: number; token: string; data: Record<string, unknown> }> {
  const answer = await api.call('POST', '/user/tokens', as(credential, { body }));
  if (answer.status !== 201) throw new Error(`POST /user/tokens answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return { id: answer.body.data.id, token: answer.body.data.token, data: answer.body.data };
}
