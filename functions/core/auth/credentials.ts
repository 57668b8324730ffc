import { Unauthenticated } from '../errors.ts';

/** What a request presents: the raw material the authorizer checks. */
export interface CredentialRequest {
  authorization?: string;
  cookie?: string;
  xsrfToken?: string;
  method: string;
  sourceIp: string;
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
  if (token.startsWith('sk_')) return { type: 'api_key', key: token };
  const userToken = userTokenPattern.exec(token);
  if (userToken) return { type: 'user_token', id: Number(userToken[1]), secret: userToken[2]!, token };
  return { type: 'oauth', token };
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
    case 'basic': {
      // The key is the user name; the password must be empty, as the spec says.
      const [user, password = ''] = Buffer.from(value, 'base64').toString('utf8').split(/:(.*)/s);
      if (user && !password) return { type: 'api_key', key: user };
      break;
    }
  }
  throw new Unauthenticated('Send "Authorization: Bearer <credential>", Basic with the API key as user name, or a session cookie.');
}
