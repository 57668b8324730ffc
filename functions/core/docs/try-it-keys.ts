import { isLive } from '#core/access/credential-lifecycle';
import type { Principal } from '#core/access/principal';
import { createApiKey, revokeApiKey } from '#core/api-keys/api-keys';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { reserveAttempt, type ThrottlePolicy } from '#core/store/throttle-windows';

/** The name every try-it key carries: how the user recognises it in their key list, and how the next one finds it to replace it. */
const tryItKeyName = 'API docs try-it';

/**
 * Read scopes only: the try-it form can call every GET of the API. A test key could write
 * test data only, but a page a user opened to read should not hand a script a key that
 * changes anything; a user who wants to try writes creates a key of their own.
 */
const tryItScopes = ['read:all'];

/** Long enough to read and try; short, since the page holds it in memory and the user never saw it created. */
const tryItLifetimeMs = 60 * 60 * 1000;

/**
 * Per user: a page load asks for one; ten a minute is many reloads. Each key costs a bcrypt
 * hash and two webhook events (api_key.revoked, api_key.created) to the workspace's endpoints.
 */
export const tryItKeyThrottle = { limit: 10, windowSeconds: 60 } as const satisfies ThrottlePolicy;

/** A revocation that finds the key gone (revoked, rotated or expired meanwhile) has nothing left to do. */
const revokedUnlessGone = (revoking: Promise<unknown>) =>
  revoking.catch((error: unknown) => {
    if (!(error instanceof NotFound)) throw error;
  });

/**
 * A fresh test key for the docs pages' try-it form, made as POST /api-keys makes one
 * (createApiKey), never live; the caller has checked the workspace's state and the maintenance
 * switch. The user's earlier try-it keys there are revoked first, so that reloading a page
 * never piles keys up against the limit.
 */
export async function issueTryItKey(deps: Deps, principal: Principal) {
  const { workspaceId, userId } = principal;
  await reserveAttempt(
    deps,
    `try-it-key:${userId}`,
    tryItKeyThrottle,
    `At most ${tryItKeyThrottle.limit} try-it keys a minute; reload less often.`,
  );
  const { data: keys } = await deps.db.entities.apiKey.query.byWorkspace({ workspaceId }).go({ pages: 'all', consistent: true });
  const now = deps.clock.now();
  const earlier = keys.filter(
    (key) => key.userId === userId && key.environment === 'test' && key.name === tryItKeyName && isLive(key, now),
  );
  for (const key of earlier) await revokedUnlessGone(revokeApiKey(deps, principal, workspaceId, key.id));
  return createApiKey(deps, principal, workspaceId, {
    name: tryItKeyName,
    environment: 'test',
    scopes: tryItScopes,
    expiresAt: new Date(deps.clock.now().getTime() + tryItLifetimeMs).toISOString(),
  });
}
