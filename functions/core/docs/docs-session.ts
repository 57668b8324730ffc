import type { Principal } from '#core/access/principal';
import { cookieValue, sessionCookie } from '#core/credentials/credential-header';
import { authenticateSession } from '#core/credentials/session-auth';
import type { Deps } from '#core/ports/deps';

export interface PageRequest {
  method: string;
  cookie?: string;
  xsrfToken?: string;
  sourceIp: string;
}

/**
 * The signed-in user of a documentation request, checked as the authorizer checks a session
 * cookie (an unsafe method must echo XSRF-TOKEN), or undefined when there is none or it has
 * ended: the pages then send the browser to the login page rather than answer 401.
 */
export async function docsSession(deps: Deps, request: PageRequest): Promise<Principal | undefined> {
  const sessionId = cookieValue(request.cookie, sessionCookie);
  if (!sessionId) return undefined;
  return authenticateSession(deps, sessionId, request);
}
