import { issueApiKey, revokeApiKey, rotateApiKey } from '#core/api-keys/api-keys';
import { issueUserToken, revokeUserToken } from '#core/users/user-tokens';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { type TestDeps, testDeps, testHasher } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';
import { ownerPrincipal } from '../support/principals.ts';

/** Runs `meanwhile` once, while the next key's hash is computed: between a rotation's read and its write. */
let meanwhile: (() => Promise<void>) | undefined;
const hasher = {
  ...testHasher,
  hash: async (plain: string) => {
    const run = meanwhile;
    meanwhile = undefined;
    await run?.();
    return testHasher.hash(plain);
  },
};

let deps: TestDeps;
let userId: number;
let workspaceId: string;
beforeAll(async () => {
  deps = await testDeps({ hasher });
  userId = (await createUser(deps, { name: 'Rae', email: 'rae@example.com', tier: 'pro' })).id;
  workspaceId = (await createWorkspace(deps, userId, { name: 'Races', tier: 'pro' })).id;
});

describe('credential changes', () => {
  it('answer 404 to a rotation that loses a race with a revocation', async () => {
    const key = await issueApiKey(deps, userId, workspaceId, { name: 'raced' });
    meanwhile = () => revokeApiKey(deps, { userId }, workspaceId, key.id);
    const error = await errorOf(rotateApiKey(deps, ownerPrincipal(userId, workspaceId), workspaceId, key.id, 24));
    expect({ status: error.status, errorCode: error.errorCode }).toEqual({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
  });

  it('let a token be revoked only by a credential holding every ability of it', async () => {
    const owner = ownerPrincipal(userId, workspaceId);
    const wide = await issueUserToken(deps, owner, workspaceId, { name: 'wide', abilities: ['*'] });
    const narrow = { ...owner, scopes: ['users:write'], credential: { type: 'user_token' as const, id: 'narrow' } };
    const error = await errorOf(revokeUserToken(deps, narrow, wide.id));
    expect({ status: error.status, errorCode: error.errorCode }).toEqual({ status: 403, errorCode: 'ACCESS_DENIED' });
    const peer = await issueUserToken(deps, owner, workspaceId, { name: 'peer', abilities: ['users:write'] });
    await revokeUserToken(deps, narrow, peer.id);
    const stored = async (id: number) => !!(await deps.db.entities.userToken.get({ id }).go()).data;
    expect({ wide: await stored(wide.id), peer: await stored(peer.id) }).toEqual({ wide: true, peer: false });
  });
});
