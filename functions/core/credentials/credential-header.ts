import { apiKeyRandomLength } from '#core/api-keys/api-key-format';
import { Unauthenticated } from '#core/platform/errors';

/** What a request presents: the raw material the authorizer checks. */
export interface CredentialRequest {
  authorization?: string;
  cookie?: string;
  xsrfToken?: string;
  method: string;
  sourceIp: string;
  /** The workspace the request names (X-Workspace-ID, else the `workspace_id` query parameter), unchecked. */
  workspaceId?: string;
}

export type Credential =
  | { type: 'api_key'; key: string }
  | { type: 'user_token'; id: number; secret: string; token: string }
  | { type: 'oauth'; token: string }
  | { type: 'session'; sessionId: string };

export const sessionCookie = 'session';
export const xsrfCookie = 'XSRF-TOKEN';

const userTokenPattern = /^(\d{1,15})\|([A-Za-z0-9]{40})$/;

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function bearer(token: string): Credential {
  // A shell or config file quoting the key: nothing quoted is ever a credential, so say what is wrong.
  if (/^["'`]/.test(token)) {
    throw new Unauthenticated(
      `The bearer credential is in quotes: send it without them (an API key looks like sk_live_ and ${apiKeyRandomLength} letters or digits).`,
    );
  }
  if (token.startsWith('sk_')) return { type: 'api_key', key: token };
  const userToken = userTokenPattern.exec(token);
  if (userToken) return { type: 'user_token', id: Number(userToken[1]), secret: userToken[2]!, token };
  return { type: 'oauth', token };
}

/**
 * HTTP Basic carries an API key as the user name with an empty password, as the spec says.
 * What else a client may try there is answered with what to do instead.
 */
function basic(value: string): Credential {
  const [user = '', password = ''] = Buffer.from(value, 'base64').toString('utf8').split(/:(.*)/s);
  if (user.includes('@')) {
    throw new Unauthenticated(
      'Basic with an email and password is not accepted: sign in with POST /login, or send an API key as the Basic user name with an empty password.',
    );
  }
  if (user && password) {
    throw new Unauthenticated(
      'Basic takes the API key as the user name and an empty password: send "<key>:" (curl -u "$KEY:"), or the key as a Bearer token.',
    );
  }
  if (user) return { type: 'api_key', key: user };
  throw new Unauthenticated('Basic takes the API key as the user name (and an empty password); the user name is empty.');
}

/**
 * Which credential a request carries: `Authorization: Bearer` (an API key `sk_…`, a user
 * token `<id>|<secret>`, or else an OAuth access token), Basic with an API key as user
 * name, or, without an Authorization header, the session cookie.
 */
export function credentialOf(request: CredentialRequest): Credential {
  const authorization = request.authorization?.trim();
  if (!authorization) {
    const sessionId = cookieValue(request.cookie, sessionCookie);
    if (sessionId) return { type: 'session', sessionId };
    throw new Unauthenticated();
  }
  const [scheme, value = '', ...extra] = authorization.split(/\s+/);
  switch (extra.length ? undefined : scheme?.toLowerCase()) {
    case 'bearer':
      if (value) return bearer(value);
      break;
    case 'basic':
      return basic(value);
  }
  throw new Unauthenticated('Send "Authorization: Bearer <credential>", Basic with the API key as user name, or a session cookie.');
}
