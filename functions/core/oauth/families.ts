import type { Deps } from '../deps.ts';

/**
 * Revokes every token descended from one authorization: its access tokens stop working at
 * once (the authorizer finds no record), its refresh tokens can no longer be exchanged.
 */
export async function revokeFamily(deps: Deps, familyId: string): Promise<void> {
  const { oauthToken, oauthRefreshToken } = deps.db.entities;
  const [{ data: access }, { data: refresh }] = await Promise.all([
    oauthToken.query.byFamily({ familyId }).go({ pages: 'all' }),
    oauthRefreshToken.query.byFamily({ familyId }).go({ pages: 'all' }),
  ]);
  if (access.length) await oauthToken.delete(access.map(({ digest }) => ({ digest }))).go();
  if (refresh.length) await oauthRefreshToken.delete(refresh.map(({ digest }) => ({ digest }))).go();
}
