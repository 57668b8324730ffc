import { randomUUID } from 'node:crypto';
import { registerVerified } from '../support/accounts.ts';
import { testHasher } from '../support/deps.ts';
import { type ApiAnswer, startTestApi, type TestApi } from '../support/local-api.ts';
import { as, type Credential, login } from '../support/sessions.ts';

/** Key hashing can be slowed, to hold a request in flight while its repeat arrives. */
let slowHashMs = 0;
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    overrides: {
      hasher: {
        hash: async (plain) => {
          await new Promise((done) => setTimeout(done, slowHashMs));
          return testHasher.hash(plain);
        },
        compare: testHasher.compare,
      },
    },
  });
});
afterAll(() => api.stop());

const password = 'correct horse battery staple';
const replayed = (answer: ApiAnswer) => answer.headers.get('idempotent-replayed');
const withKey = (key: string, options: { body?: unknown; credential?: Credential } = {}) => {
  const headers = { 'Idempotency-Key': key };
  return options.credential ? as(options.credential, { body: options.body, headers }) : { body: options.body, headers };
};
const workspacesNamed = async (name: string) =>
  (await api.call('GET', '/workspaces?per_page=100')).body.data.filter((w: { name: string }) => w.name === name).length;

describe('Idempotency-Key', () => {
  it('replays the first answer, status and body, with Idempotent-Replayed, and creates nothing twice', async () => {
    const key = randomUUID();
    const first = await api.call('POST', '/workspaces', withKey(key, { body: { name: 'Once' } }));
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    const again = await api.call('POST', '/workspaces', withKey(key, { body: { name: 'Once' } }));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
    // The rate-limit headers are the replay's own: it was counted as a request.
    expect(again.headers.get('x-ratelimit-limit')).toBe(first.headers.get('x-ratelimit-limit'));
    expect(await workspacesNamed('Once')).toBe(1);
  });

  it('answers 422 naming the header when the key comes with another request', async () => {
    const key = randomUUID();
    const first = await api.call('POST', '/workspaces', withKey(key, { body: { name: 'First' } }));
    expect(first.status).toBe(201);
    for (const [method, path, body] of [
      ['POST', '/workspaces', { name: 'Second' }],
      ['POST', '/api-keys', { name: 'First' }],
    ] as const) {
      const other = await api.call(method, path, withKey(key, { body }));
      expect(other.status).toBe(422);
      expect(other.body.error_code).toBe('VALIDATION_FAILED');
      expect(Object.keys(other.body.errors)).toEqual(['Idempotency-Key']);
    }
    // The same call in another workspace is another request too.
    const elsewhere = await api.call('POST', '/workspaces', {
      body: { name: 'First' },
      headers: { 'Idempotency-Key': key, 'X-Workspace-ID': first.body.data.id },
    });
    expect(elsewhere.status).toBe(422);
    // The same request written differently (key order, spacing) is the same request.
    const reordered = await api.call('POST', '/workspaces', { rawBody: '{ "name" :  "First" }', headers: { 'Idempotency-Key': key } });
    expect(reordered.status).toBe(201);
    expect(replayed(reordered)).toBe('true');
  });

  it('lets simultaneous repeats create one resource: each answer is the first one or 409 RESOURCE_LOCKED', async () => {
    slowHashMs = 300;
    try {
      const key = randomUUID();
      const name = `parallel ${key}`;
      const answers = await Promise.all(Array.from({ length: 8 }, () => api.call('POST', '/api-keys', withKey(key, { body: { name } }))));
      const created = answers.filter((a) => a.status === 201);
      const locked = answers.filter((a) => a.status === 409);
      expect(created.length + locked.length).toBe(answers.length);
      expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
      for (const answer of locked) {
        expect(answer.body.error_code).toBe('RESOURCE_LOCKED');
        expect(answer.headers.get('retry-after')).toBe('1');
      }
      expect(locked.length).toBeGreaterThan(0);
      const keys = (await api.call('GET', '/api-keys?per_page=100')).body.data.filter((k: { name: string }) => k.name === name);
      expect(keys.length).toBe(1);
      // Once the first has completed, a repeat is its replay.
      const after = await api.call('POST', '/api-keys', withKey(key, { body: { name } }));
      expect(after.status).toBe(201);
      expect(after.body.data.id).toBe(keys[0].id);
      expect(replayed(after)).toBe('true');
    } finally {
      slowHashMs = 0;
    }
  });

  it('replays a DELETE and a refusal the handler ended in, but not a request refused before it ran', async () => {
    const made = await api.call('POST', '/api-keys', { body: { name: 'to revoke' } });
    const key = randomUUID();
    const revoked = await api.call('DELETE', `/api-keys/${made.body.data.id}`, withKey(key));
    expect(revoked.status).toBe(204);
    const again = await api.call('DELETE', `/api-keys/${made.body.data.id}`, withKey(key));
    expect(again.status).toBe(204);
    expect(replayed(again)).toBe('true');
    // Without the key, the key is gone.
    expect((await api.call('DELETE', `/api-keys/${made.body.data.id}`)).status).toBe(404);

    const missing = 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const refusalKey = randomUUID();
    const refused = await api.call('POST', `/api-keys/${missing}/rotate`, withKey(refusalKey, { body: {} }));
    expect(refused.status).toBe(404);
    const refusedAgain = await api.call('POST', `/api-keys/${missing}/rotate`, withKey(refusalKey, { body: {} }));
    expect(refusedAgain.status).toBe(404);
    expect(refusedAgain.body.message).toBe(refused.body.message);
    expect(replayed(refusedAgain)).toBe('true');

    // Invalid input is refused before the handler runs: nothing is kept, the key is free.
    const invalidKey = randomUUID();
    expect((await api.call('POST', '/workspaces', withKey(invalidKey, { body: {} }))).status).toBe(422);
    const valid = await api.call('POST', '/workspaces', withKey(invalidKey, { body: { name: 'After a mistake' } }));
    expect(valid.status).toBe(201);
    expect(replayed(valid)).toBeNull();
  });

  it('answers a repeat only to the credential that sent the first: a narrower one of the same user gets its own answer', async () => {
    const narrow = await api.call('POST', '/api-keys', { body: { name: 'narrow', scopes: ['api-keys:write'] } });
    const key = randomUUID();
    const wide = await api.call('POST', '/api-keys', withKey(key, { body: { name: 'wide', scopes: ['*'] } }));
    expect(wide.status).toBe(201);
    const attempt = await api.call('POST', '/api-keys', {
      key: narrow.body.data.key,
      body: { name: 'wide', scopes: ['*'] },
      headers: { 'Idempotency-Key': key },
    });
    expect(attempt.status).toBe(403);
    expect(replayed(attempt)).toBeNull();
    expect(JSON.stringify(attempt.body)).not.toContain(wide.body.data.key);
  });

  it('tells no repeat apart by the password in it: a guess gets the first answer replayed, never a hint', async () => {
    const { userId, session } = await registerVerified(api, { name: 'Guessed', email: 'guessed@example.com', password });
    const key = randomUUID();
    const change = (currentPassword: string) =>
      api.call(
        'PATCH',
        `/users/${userId}`,
        withKey(key, { credential: session, body: { email: 'guessed.new@example.com', current_password: currentPassword } }),
      );
    const first = await change(password);
    expect(first.status).toBe(200);
    for (const guess of ['wrong one', 'another wrong one']) {
      const repeat = await change(guess);
      expect([repeat.status, repeat.body, replayed(repeat)]).toEqual([first.status, first.body, 'true']);
    }
  });

  it("keeps each user's keys apart", async () => {
    const { session } = await registerVerified(api, { name: 'Other', email: 'idem-other@example.com', password });
    const key = randomUUID();
    const mine = await api.call('POST', '/workspaces', withKey(key, { body: { name: 'Mine' } }));
    const theirs = await api.call('POST', '/workspaces', withKey(key, { body: { name: 'Theirs' }, credential: session }));
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(replayed(theirs)).toBeNull();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('refuses a malformed key with 422, and public routes ignore the header', async () => {
    for (const bad of ['', ' ', 'a b', 'x'.repeat(256), 'clé']) {
      const answer = await api.call('POST', '/workspaces', { body: { name: 'Bad key' }, headers: { 'Idempotency-Key': bad } });
      expect(answer.status).toBe(422);
      expect(Object.keys(answer.body.errors)).toEqual(['Idempotency-Key']);
    }
    expect(await workspacesNamed('Bad key')).toBe(0);
    const email = 'idem-login@example.com';
    await registerVerified(api, { name: 'Login', email, password });
    const key = randomUUID();
    for (let i = 0; i < 2; i++) {
      const answer = await api.call('POST', `${api.runner.origin}/login`, {
        key: '',
        body: { email, password },
        headers: { 'Idempotency-Key': key },
      });
      expect(answer.status).toBe(200);
      expect(replayed(answer)).toBeNull();
    }
    expect((await login(api, email, password)).answer.status).toBe(200);
  });
});
