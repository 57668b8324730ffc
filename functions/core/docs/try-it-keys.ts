import type { Principal } from '#core/access/principal';
import { createApiKey, revokeApiKey } from '#core/api-keys/api-keys';
import type { Deps } from '#core/ports/deps';

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
 * A fresh test key for the documentation pages' try-it form, for the signed-in user in the
 * session's workspace (their current one; the personal one at registration), made as
 * `POST /api-keys` makes a key (createApiKey: the key limit, the workspace's state, the
 * api_key.created event), never live. The user's earlier try-it keys there are revoked
 * first, so reloading a page never piles keys up against the limit.
 */
export async function issueTryItKey(deps: Deps, principal: Principal) {
  const { workspaceId, userId } = principal;
  const { data: keys } = await deps.db.entities.apiKey.query.byWorkspace({ workspaceId }).go({ pages: 'all', consistent: true });
  const earlier = keys.filter((key) => key.userId === userId && key.environment === 'test' && key.name === tryItKeyName);
  for (const key of earlier) await revokeApiKey(deps, principal, workspaceId, key.id);
  return createApiKey(deps, principal, workspaceId, {
    name: tryItKeyName,
    environment: 'test',
    scopes: tryItScopes,
    expiresAt: new Date(deps.clock.now().getTime() + tryItLifetimeMs).toISOString(),
  });
}
