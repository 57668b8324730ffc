import { issueApiKey, revokeApiKey } from '#core/api-keys/api-keys';
import { authenticate } from '#core/credentials/authenticate';
import { credentialOf } from '#core/credentials/credential-header';
import { tiers } from '#core/platform/tiers';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { countingHasher, manualClock, type TestDeps, testDeps } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';

const clock = manualClock(new Date());
const authenticateApiKey = (deps: TestDeps, key: string) =>
  authenticate(deps, { authorization: `Bearer ${key}`, method: 'GET', sourceIp: '203.0.113.9' });
const hasher = countingHasher();
let deps: TestDeps;
let userId: number;
let workspaceId: string;

beforeAll(async () => {
  deps = await testDeps({ clock, hasher });
  userId = (await createUser(deps, { name: 'Kay', email: 'kay@example.com', tier: 'pro' })).id;
  workspaceId = (await createWorkspace(deps, userId, { name: 'Keys', tier: 'pro' })).id;
});

describe('API key authentication', () => {
  it('returns the principal of a valid key: user, workspace, environment, scopes, tier', async () => {
    const issued = await issueApiKey(deps, userId, workspaceId, { name: 'k', scopes: ['workspaces:read'], environment: 'test' });
    await expect(authenticateApiKey(deps, issued.key)).resolves.toEqual({
      userId,
      workspaceId,
      role: 'owner',
      environment: 'test',
      scopes: ['workspaces:read'],
      tier: 'pro',
      credential: { type: 'api_key', id: issued.id },
      limits: { tier: 'pro' },
      // Metered in its workspace (none other named), at the edge under that workspace's own API Gateway key.
      meteredWorkspaceId: workspaceId,
      usageKey: (await deps.db.entities.workspace.get({ id: workspaceId }).go()).data!.gatewayKey!.value,
      apiCallsLimit: tiers.pro.entitlements.api_calls,
    });
  });

  it('verifies a key with bcrypt once per process, however often it is used', async () => {
    const issued = await issueApiKey(deps, userId, workspaceId, { name: 'hot' });
    const before = hasher.comparisons;
    for (let i = 0; i < 5; i++) await authenticateApiKey(deps, issued.key);
    expect(hasher.comparisons - before).toBe(1);
  });

  it('stores only a bcrypt hash of cost 10, never the key', async () => {
    const issued = await issueApiKey(deps, userId, workspaceId, { name: 'stored' });
    const { data } = await deps.db.entities.apiKey.get({ workspaceId, id: issued.id }).go();
    expect(data?.keyHash).toMatch(/^\$2[aby]\$10\$/);
    expect(JSON.stringify(data)).not.toContain(issued.key);
    expect(data?.prefix).toBe(issued.key.slice(0, 'sk_live_'.length + 8));
  });

  it('refuses a revoked key at once, even after it was verified in this process', async () => {
    const issued = await issueApiKey(deps, userId, workspaceId, { name: 'revoked' });
    await authenticateApiKey(deps, issued.key);
    await revokeApiKey(deps, { userId }, workspaceId, issued.id);
    const error = await errorOf(authenticateApiKey(deps, issued.key));
    expect(error.status).toBe(401);
    expect(error.errorCode).toBe('INVALID_API_KEY');
  });

  it('answers TOKEN_EXPIRED with meta.expired_at once a key passes expires_at', async () => {
    const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
    const issued = await issueApiKey(deps, userId, workspaceId, { name: 'brief', expiresAt });
    await expect(authenticateApiKey(deps, issued.key)).resolves.toBeDefined();
    clock.advance(60_000);
    const error = await errorOf(authenticateApiKey(deps, issued.key));
    expect(error.status).toBe(401);
    expect(error.errorCode).toBe('TOKEN_EXPIRED');
    expect(error.meta).toEqual({ expired_at: expiresAt });
  });

  it('treats a record whose TTL has passed as absent, though DynamoDB has not removed it yet', async () => {
    const issued = await issueApiKey(deps, userId, workspaceId, { name: 'ttl' });
    await deps.db.entities.apiKey
      .patch({ workspaceId, id: issued.id })
      .set({ ttl: Math.floor(clock.now().getTime() / 1000) - 1 })
      .go();
    expect((await errorOf(authenticateApiKey(deps, issued.key))).errorCode).toBe('INVALID_API_KEY');
  });

  it('refuses malformed keys and unknown keys with the same prefix', async () => {
    const issued = await issueApiKey(deps, userId, workspaceId, { name: 'twin' });
    const forged = issued.key.slice(0, -1) + (issued.key.endsWith('A') ? 'B' : 'A');
    expect((await errorOf(authenticateApiKey(deps, forged))).errorCode).toBe('INVALID_API_KEY');
    expect((await errorOf(authenticateApiKey(deps, 'sk_live_nope'))).errorCode).toBe('INVALID_API_KEY');
  });

  it('reads the key from Bearer or from Basic with the key as user name', () => {
    const of = (authorization?: string) => credentialOf({ authorization, method: 'GET', sourceIp: '::1' });
    expect(of('Bearer sk_live_abc')).toEqual({ type: 'api_key', key: 'sk_live_abc' });
    expect(of('bearer   sk_live_abc')).toEqual({ type: 'api_key', key: 'sk_live_abc' });
    expect(of(`Basic ${Buffer.from('sk_live_abc:').toString('base64')}`)).toEqual({ type: 'api_key', key: 'sk_live_abc' });
    expect(of(`Basic ${Buffer.from('sk_live_abc').toString('base64')}`)).toEqual({ type: 'api_key', key: 'sk_live_abc' });
    for (const bad of [undefined, '', 'Bearer', 'Token abc', `Basic ${Buffer.from(':pw').toString('base64')}`]) {
      expect(() => of(bad)).toThrow(expect.objectContaining({ errorCode: 'UNAUTHENTICATED' }));
    }
  });
});
