import type { Deps } from '#core/ports/deps';
import { refreshTokenLifetimeSeconds } from './token-lifetimes.ts';

/**
 * Revokes every token descended from one authorization: its access tokens stop working at
 * once (the authorizer finds no record), its refresh tokens can no longer be exchanged.
 * The family's mark comes first, so that a refresh under way stores nothing afterwards.
 */
export async function revokeFamily(deps: Deps, familyId: string): Promise<void> {
  const { oauthToken, oauthRefreshToken, oauthFamily } = deps.db.entities;
  const now = deps.clock.now();
  await oauthFamily
    .put({ familyId, revokedAt: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + refreshTokenLifetimeSeconds })
    .go();
  const [{ data: access }, { data: refresh }] = await Promise.all([
    oauthToken.query.byFamily({ familyId }).go({ pages: 'all' }),
    oauthRefreshToken.query.byFamily({ familyId }).go({ pages: 'all' }),
  ]);
  if (access.length) await oauthToken.delete(access.map(({ digest }) => ({ digest }))).go();
  if (refresh.length) await oauthRefreshToken.delete(refresh.map(({ digest }) => ({ digest }))).go();
}
