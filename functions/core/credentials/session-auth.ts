import { hasExpired } from '#core/access/credential-lifecycle';
import type { Principal } from '#core/access/principal';
import { BoundedCache } from '#core/platform/bounded-cache';
import { AccessDenied, InvalidToken } from '#core/platform/errors';
import { sameSecret, sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { SessionItem } from '#core/store/items';
import type { CredentialRequest } from './credential-header.ts';
import { type Location, verifyCredential } from './verify-credential.ts';

const knownSessions = new BoundedCache<Location>();

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A session acts with everything its user may do. */
export const sessionScopes = ['*'];

/**
 * A session cookie: its record by the cookie's digest. Unsafe methods must echo the
 * session's XSRF token in X-XSRF-TOKEN (double submit), so another site cannot ride on the
 * cookie.
 */
export function authenticateSession(deps: Deps, sessionId: string, request: CredentialRequest): Promise<Principal> {
  const digest = sha256(sessionId);
  return verifyCredential<Location, SessionItem>(
    deps,
    {
      verified: knownSessions,
      refused: () => new InvalidToken('The session has ended: log in again.'),
      locate: async () => {
        const { data } = await deps.db.entities.session.get({ digest }).go({ ...hotPath, consistent: true });
        return data ? { workspaceId: data.workspaceId, userId: data.userId } : undefined;
      },
      record: ({ session }) => session.get({ digest }).commit(),
      live: (session, now) => !hasExpired(session.expiresAt, now),
      check: (session) => {
        if (!safeMethods.has(request.method.toUpperCase()) && !sameSecret(request.xsrfToken ?? '', session.xsrfToken)) {
          throw new AccessDenied('A cookie-authenticated request that changes data must send the XSRF-TOKEN cookie value in X-XSRF-TOKEN.');
        }
      },
      principal: (_session, workspace) => ({
        environment: 'live',
        scopes: sessionScopes,
        tier: workspace.tier,
        credential: { type: 'session', id: digest },
      }),
    },
    digest,
    request.workspaceId,
  );
}
