import type { Deps } from '../deps.ts';
import { readTogether } from '../store/conditions.ts';
import { AccessDenied, InvalidToken } from '../errors.ts';
import { hotPath } from '../store/database.ts';
import type { CredentialRequest } from './credentials.ts';
import { LocationCache } from './location-cache.ts';
import type { Principal } from './principal.ts';
import { sameSecret, sha256 } from './secrets.ts';
import { suspensionOf } from './workspace-context.ts';

const knownSessions = new LocationCache<{ workspaceId: string; userId: number }>();

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A session acts with everything its user may do. */
export const sessionScopes = ['*'];

/**
 * A session cookie: its record by the cookie's digest. Unsafe methods must echo the
 * session's XSRF token in X-XSRF-TOKEN (double submit), so another site cannot ride on the
 * cookie.
 */
export async function authenticateSession(deps: Deps, sessionId: string, request: CredentialRequest): Promise<Principal> {
  const digest = sha256(sessionId);
  let location = knownSessions.get(digest);
  if (!location) {
    const { data } = await deps.db.entities.session.get({ digest }).go({ ...hotPath, consistent: true });
    if (!data) throw new InvalidToken('The session has ended: log in again.');
    location = { workspaceId: data.workspaceId, userId: data.userId };
  }
  const { workspaceId, userId } = location;
  const data = await readTogether(() =>
    deps.db.transaction
      .get(({ session, workspace, membership }) => [
        session.get({ digest }).commit(),
        workspace.get({ id: workspaceId }).commit(),
        membership.get({ workspaceId, userId }).commit(),
      ])
      .go(),
  );
  const [sessionRecord, workspaceRecord, membershipRecord] = data;
  const session = sessionRecord?.item;
  const now = deps.clock.now();
  if (!session || Date.parse(session.expiresAt) <= now.getTime() || !workspaceRecord?.item || !membershipRecord?.item) {
    knownSessions.delete(digest);
    throw new InvalidToken('The session has ended: log in again.');
  }
  knownSessions.set(digest, location);
  if (!safeMethods.has(request.method.toUpperCase()) && !sameSecret(request.xsrfToken ?? '', session.xsrfToken)) {
    throw new AccessDenied('A cookie-authenticated request that changes data must send the XSRF-TOKEN cookie value in X-XSRF-TOKEN.');
  }
  return {
    userId,
    workspaceId,
    role: membershipRecord.item.role,
    environment: 'live',
    scopes: sessionScopes,
    tier: workspaceRecord.item.tier,
    credential: { type: 'session', id: digest },
    suspension: suspensionOf(workspaceRecord.item),
  };
}
