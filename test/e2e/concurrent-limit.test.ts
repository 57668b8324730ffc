import { tiers } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { registerVerified } from '../support/accounts.ts';
import { startTestApiWithDeps, type TestApi } from '../support/local-api.ts';
import { as } from '../support/sessions.ts';

/**
 * A credential's concurrent batch and MCP tool calls, held to its tier's `concurrentCalls`
 * by lease items in the table: what holds across processes holds across Lambda containers.
 */
let api: TestApi & { deps: Deps };
let key: string;
let keyId: string;
beforeAll(async () => {
  api = await startTestApiWithDeps();
  const { session } = await registerVerified(api, { name: 'Cora', email: 'cora@example.com', password: 'one at a time' });
  const created = (await api.call('POST', '/api-keys', as(session, { body: { name: 'busy', scopes: ['*'] } }))).body.data;
  [key, keyId] = [created.key, created.id];
});
afterAll(() => api.stop());

const limit = tiers.free.concurrentCalls;
const batch = (title: string) =>
  api.call('POST', '/resources/batch', {
    key,
    body: {
      operations: Array.from({ length: 20 }, (_, i) => ({ action: 'create', resource: 'categories', data: { name: `${title} ${i}` } })),
    },
  });
const leasesOf = async (credentialId: string) =>
  (await api.deps.db.entities.concurrencyLease.query.byCredential({ credentialId }).go()).data;

describe('concurrent calls of one credential', () => {
  it(`answers the calls past the free tier's ${limit} at once with 429 CONCURRENT_LIMIT_EXCEEDED and Retry-After, and gives every slot back`, async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => batch(`Wave ${i}`)));
    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.length - refused.length).toBeGreaterThanOrEqual(limit);
    for (const answer of refused) {
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body).toMatchObject({ error: 'rate_limit_exceeded', error_code: 'CONCURRENT_LIMIT_EXCEEDED', limit, retry_after: 1 });
    }
    expect(await leasesOf(keyId)).toEqual([]);
    expect((await batch('Alone')).status).toBe(200);
  }, 60_000);

  it("holds across processes: slots another container holds refuse, and a crashed holder's slot frees itself when it expires", async () => {
    const now = api.deps.clock.now().getTime();
    const held = (slot: number, expiresAt: number) => ({ credentialId: keyId, slot, holder: `elsewhere-${slot}`, expiresAt, ttl: 0 });
    await api.deps.db.entities.concurrencyLease.put(Array.from({ length: limit }, (_, slot) => held(slot, now + 60_000))).go();
    const refused = await api.call('POST', '/mcp/tools/call', { key, body: { server: 'posts', tool: 'list_posts', arguments: {} } });
    expect(refused.status).toBe(429);
    expect(refused.body.error_code).toBe('CONCURRENT_LIMIT_EXCEEDED');

    await api.deps.db.entities.concurrencyLease.put(held(0, now - 1)).go();
    expect((await batch('After a crash')).status).toBe(200);
    // The other holders' slots are theirs to give back.
    expect((await leasesOf(keyId)).map((lease) => lease.holder)).toEqual(['elsewhere-1']);
  });

  it('takes one slot for an MCP tool call that runs a batch, not one for the call and one for the batch', async () => {
    await api.deps.db.entities.concurrencyLease.delete(await leasesOf(keyId)).go();
    const now = api.deps.clock.now().getTime();
    // Every slot but one held elsewhere: the tool call takes the last, and its batch runs in it.
    const others = Array.from({ length: limit - 1 }, (_, slot) => ({
      credentialId: keyId,
      slot,
      holder: `other-${slot}`,
      expiresAt: now + 60_000,
      ttl: 0,
    }));
    await api.deps.db.entities.concurrencyLease.put(others).go();
    const operations = [{ action: 'create', resource: 'categories', data: { name: 'Through a tool' } }];
    const called = await api.call('POST', '/mcp/tools/call', {
      key,
      body: { server: 'batch', tool: 'batch_resources', arguments: { operations } },
    });
    expect(called.status).toBe(200);
    expect((await leasesOf(keyId)).map((lease) => lease.holder).sort()).toEqual(others.map((lease) => lease.holder).sort());
  });
});
