import { randomUUID } from 'node:crypto';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import type { IdempotentRequest } from '#core/http/idempotency/idempotent-routes';
import { ApiError, NotFound } from '#core/platform/errors';
import { type TestDeps, testDeps } from '../support/deps.ts';

let deps: TestDeps;
beforeAll(async () => {
  deps = await testDeps();
});
afterAll(() => deps.close());

const requestWith = (key = randomUUID(), body: unknown = { name: 'x' }): IdempotentRequest => ({
  owner: '1:live',
  key,
  fingerprint: { method: 'POST', path: '/api/v1/workspaces', query: {}, context: { workspaceId: 'wks_1', namespace: null }, body },
});

/** A handler that counts its runs and answers 201. */
function counting() {
  const handler = { runs: 0, handle: async () => ({ status: 201, body: { run: ++handler.runs } }) };
  return handler;
}

const records = async () => {
  const { data } = await deps.db.entities.idempotencyRecord.scan.go({ pages: 'all' });
  return data;
};

describe('idempotent requests on the table', () => {
  it('store the request only as a hash keyed by its Idempotency-Key: the same body under two keys hashes apart, so no guess at a password in it can be tested', async () => {
    const body = { current_password: 'correct horse battery staple', password: 'new horse', password_confirmation: 'new horse' };
    const [first, second] = [requestWith(randomUUID(), body), requestWith(randomUUID(), body)];
    for (const request of [first, second]) await runIdempotently(deps.db, request, counting().handle);
    const hashes = (await records()).filter((r) => r.payloadHash).map((r) => r.payloadHash);
    const stored = await records();
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(JSON.stringify(stored)).not.toContain('correct horse');
  });

  it('keeps each record in a partition of its own', async () => {
    const handler = counting();
    for (let i = 0; i < 3; i++) await runIdempotently(deps.db, requestWith(), handler.handle);
    const params = deps.db.entities.idempotencyRecord.get({ key: 'k' }).params() as { Key: { pk: string } };
    expect(params.Key.pk).toBe('IDEMPOTENCY#k');
    const keys = (await records()).map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThanOrEqual(3);
  });

  it('runs again once the record is past its 24 hours, without waiting for TTL', async () => {
    const handler = counting();
    const request = requestWith();
    await runIdempotently(deps.db, request, handler.handle);
    expect((await runIdempotently(deps.db, request, handler.handle)).headers).toEqual({ 'Idempotent-Replayed': 'true' });
    const before = new Set((await records()).map((r) => r.key));
    for (const record of await records()) {
      await deps.db.entities.idempotencyRecord
        .patch({ key: record.key })
        .set({ expiresAt: Math.floor(Date.now() / 1000) - 1 })
        .go();
    }
    const answer = await runIdempotently(deps.db, request, handler.handle);
    expect(answer.body).toEqual({ run: 2 });
    expect(answer.headers).toEqual({});
    expect(before.size).toBeGreaterThan(0);
  });

  it('takes over a record whose request can no longer be running', async () => {
    const handler = counting();
    const request = requestWith();
    let release!: () => void;
    const stuck = runIdempotently(deps.db, request, () => new Promise((done) => (release = () => done({ status: 201 }))));
    await new Promise((done) => setTimeout(done, 100));
    await expect(runIdempotently(deps.db, request, handler.handle)).rejects.toMatchObject({ errorCode: 'RESOURCE_LOCKED' });
    // As if its process died: the in-progress record outlived the time a request may take.
    const [inProgress] = (await records()).filter((r) => r.status === 'INPROGRESS');
    await deps.db.entities.idempotencyRecord
      .patch({ key: inProgress!.key })
      .set({ inProgressUntil: Date.now() - 1 })
      .go();
    expect((await runIdempotently(deps.db, request, handler.handle)).body).toEqual({ run: 1 });
    release();
    await stuck.catch(() => undefined);
  });

  it('stores the outcome sealed with the Idempotency-Key, which the table holds only as a digest', async () => {
    const key = randomUUID();
    const secret = `sk_live_${'s'.repeat(32)}`;
    await runIdempotently(deps.db, requestWith(key), async () => ({ status: 201, body: { data: { key: secret } } }));
    const dump = JSON.stringify(await records());
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(key);
    const replay = await runIdempotently(deps.db, requestWith(key), async () => ({ status: 500 }));
    expect(replay.body).toEqual({ data: { key: secret } });
  });

  it('keeps a refusal of the client but not a fault of ours', async () => {
    const refusal = requestWith();
    let refusals = 0;
    const refuse = async () => {
      refusals++;
      throw new NotFound('api_key', 'key_1');
    };
    for (let i = 0; i < 2; i++) await expect(runIdempotently(deps.db, refusal, refuse)).rejects.toBeInstanceOf(ApiError);
    expect(refusals).toBe(1);

    const fault = requestWith();
    let faults = 0;
    const fail = async () => {
      faults++;
      throw new Error('the table is unreachable');
    };
    for (let i = 0; i < 2; i++) await expect(runIdempotently(deps.db, fault, fail)).rejects.toThrow('unreachable');
    expect(faults).toBe(2);
    const handler = counting();
    expect((await runIdempotently(deps.db, fault, handler.handle)).status).toBe(201);
  });
});
