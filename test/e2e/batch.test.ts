import { randomUUID } from 'node:crypto';
import type { Deps } from '#core/ports/deps';
import { startTestApiWithDeps, type TestApi } from '../support/local-api.ts';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * POST /resources/batch through the local runner, and post events as endpoints receive
 * them: with `content` only where the endpoint's creator could read it.
 */

process.env.WEBHOOK_ALLOW_INSECURE = '1';

let api: TestApi & { deps: Deps };
let receiver: WebhookReceiver;
beforeAll(async () => {
  [api, receiver] = await Promise.all([startTestApiWithDeps(), startWebhookReceiver()]);
});
afterAll(() => Promise.all([api.stop(), receiver.close()]));

const batch = (operations: unknown[], options: { key?: string; headers?: Record<string, string> } = {}) =>
  api.call('POST', '/resources/batch', { ...options, body: { operations } });

describe('POST /resources/batch', () => {
  it('runs each operation on its own, in order, and answers one result per operation', async () => {
    const category = (await api.call('POST', '/categories', { body: { name: 'Batched' } })).body.data;
    const post = (await api.call('POST', '/posts', { body: { title: 'Before the batch' } })).body.data;
    const answer = await batch([
      { action: 'create', data: { title: 'Made in a batch', content: 'body', category_ids: [category.id] } },
      { action: 'create', resource: 'categories', data: { name: 'Batched too' } },
      { action: 'update', id: post.id, data: { title: 'Changed in a batch' } },
      { action: 'update', id: category.id, data: { description: 'Described' } },
      { action: 'create', data: { title: '' } },
      { action: 'update', id: 'post_01ARZ3NDEKTSV4RRFFQ69G5FAV', data: { title: 'Nobody' } },
      { action: 'update', data: { title: 'No id' } },
      { action: 'create', id: post.id, data: { title: 'An id' } },
      { action: 'update', id: 'wh_01ARZ3NDEKTSV4RRFFQ69G5FAV', data: {} },
      { action: 'update', id: post.id, resource: 'categories', data: { name: 'Mismatch' } },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((r: { index: number; status: number }) => [r.index, r.status])).toEqual([
      [0, 201],
      [1, 201],
      [2, 200],
      [3, 200],
      [4, 422],
      [5, 404],
      [6, 422],
      [7, 422],
      [8, 422],
      [9, 422],
    ]);
    expect(answer.body.meta).toEqual({ succeeded: 4, failed: 6 });
    const [created, createdCategory, updated] = answer.body.data;
    expect(created.data).toMatchObject({ title: 'Made in a batch', content: 'body', category_ids: [category.id] });
    expect(createdCategory.data).toMatchObject({ name: 'Batched too', post_count: 0 });
    expect(updated.data.title).toBe('Changed in a batch');
    expect(answer.body.data[4].error).toMatchObject({ error_code: 'VALIDATION_FAILED', errors: { title: expect.any(Array) } });
    expect(answer.body.data[6].error.errors).toEqual({ id: ['is required with action update'] });
    expect((await api.call('GET', `/posts/${created.data.id}`)).body.data.title).toBe('Made in a batch');
    expect((await api.call('GET', `/categories/${category.id}`)).body.data).toMatchObject({ description: 'Described', post_count: 1 });
  });

  it("holds each operation to its own route's scope, and the batch to resources:write", async () => {
    const key = (scopes: string[]) =>
      api.call('POST', '/api-keys', { body: { name: 'batcher', scopes } }).then((made) => made.body.data.key as string);
    const postsOnly = await key(['resources:write', 'posts:write', 'posts:read']);
    const answer = await batch(
      [
        { action: 'create', data: { title: 'Allowed', content: 'not shown back' } },
        { action: 'create', resource: 'categories', data: { name: 'Not allowed' } },
      ],
      { key: postsOnly },
    );
    expect(answer.body.data[0]).toMatchObject({ status: 201, data: { title: 'Allowed' } });
    // The batch's results show content only to credentials holding posts:read-content, as the single route does.
    expect(answer.body.data[0].data).not.toHaveProperty('content');
    expect(answer.body.data[1]).toMatchObject({ status: 403, error: { required_scope: 'categories:write' } });
    const noBatch = await batch([{ action: 'create', data: { title: 'x' } }], { key: await key(['posts:write']) });
    expect([noBatch.status, noBatch.body.required_scope]).toEqual([403, 'resources:write']);
  });

  it('refuses an empty or oversized batch as a whole', async () => {
    expect((await batch([])).status).toBe(422);
    const tooMany = Array.from({ length: 101 }, () => ({ action: 'create', data: { title: 'x' } }));
    expect((await batch(tooMany)).status).toBe(422);
    expect((await batch([{ action: 'delete', id: 'post_01ARZ3NDEKTSV4RRFFQ69G5FAV', data: {} }])).status).toBe(422);
    expect((await api.call('POST', '/resources/batch', { body: { operations: 'all' } })).status).toBe(422);
  });

  it('an Idempotency-Key covers the whole batch: a repeat replays it and creates nothing more', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const operations = [
      { action: 'create', data: { title: 'Once only' } },
      { action: 'create', data: { title: 'Once only too' } },
    ];
    const before = (await api.call('GET', '/posts')).body.meta.total;
    const first = await batch(operations, { headers });
    const repeat = await batch(operations, { headers });
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    expect((await api.call('GET', '/posts')).body.meta.total).toBe(before + 2);
    const changed = await batch([operations[0]], { headers });
    expect(changed.status).toBe(422);
  });
});

describe('post events', () => {
  it('carry content only to endpoints whose creator holds posts:read-content, and are signed over what was sent', async () => {
    const withContent = await api.call('POST', '/webhooks', { body: { url: `${receiver.origin}/with`, events: ['post.*'] } });
    const narrowKey = (await api.call('POST', '/api-keys', { body: { name: 'narrow', scopes: ['webhooks:write', 'posts:read'] } })).body
      .data.key;
    const without = await api.call('POST', '/webhooks', {
      key: narrowKey,
      body: { url: `${receiver.origin}/without`, events: ['post.created'] },
    });
    expect([withContent.status, without.status]).toEqual([201, 201]);
    const post = (await api.call('POST', '/posts', { body: { title: 'Evented', content: 'the body' } })).body.data;
    const delivered = await receiver.waitFor(
      2,
      (hook) => hook.headers['x-webhook-event'] === 'post.created' && hook.body.includes(post.id),
    );
    const byPath = Object.fromEntries(delivered.map((hook) => [hook.path, hook]));
    const full = verifyWebhook(byPath['/with']!, withContent.body.data.secret);
    const trimmed = verifyWebhook(byPath['/without']!, without.body.data.secret);
    expect(full.data).toMatchObject({ id: post.id, content: 'the body' });
    expect(trimmed.data).toEqual({ ...full.data, content: undefined });
    expect(trimmed.data).not.toHaveProperty('content');
    expect(trimmed.id).toBe(full.id);
  });
});
