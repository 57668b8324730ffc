import type { Principal } from '#core/access/principal';

/** A live API key's principal with every scope, for domain calls that need one: the owner of its home workspace. */
export const ownerPrincipal = (userId: number, workspaceId: string, tier: Principal['tier'] = 'pro'): Principal => ({
  userId,
  workspaceId,
  role: 'owner',
  environment: 'live',
  scopes: ['*'],
  tier,
  credential: { type: 'api_key', id: 'key_test' },
});
