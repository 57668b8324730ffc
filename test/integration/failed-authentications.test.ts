import { login } from '#core/accounts/sessions';
import { issueApiKey, revokeApiKey, rotateApiKey } from '#core/api-keys/api-keys';
import { authenticate } from '#core/credentials/authenticate';
import { failedAuthenticationPolicy } from '#core/credentials/failed-authentications';
import type { Hasher } from '#core/ports/deps';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { manualClock, type TestDeps, testDeps, testHasher } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';

/**
 * bcrypt compares, counted, and how many ran at once at most. The tests' cheap bcrypt: what
 * counts here is how many compares run, not what each costs; `holdMs` keeps each in flight
 * as long as a real one, where what counts is how many overlap.
 */
function watchedHasher(): Hasher & { comparisons: number; mostAtOnce: number; holdMs: number } {
  let running = 0;
  const hasher = {
    comparisons: 0,
    mostAtOnce: 0,
    holdMs: 0,
    hash: testHasher.hash,
    compare: async (plain: string, hash: string) => {
      hasher.comparisons++;
      hasher.mostAtOnce = Math.max(hasher.mostAtOnce, ++running);
      try {
        await new Promise((held) => setTimeout(held, hasher.holdMs));
        return await testHasher.compare(plain, hash);
      } finally {
        running--;
      }
    },
  };
  return hasher;
}

const clock = manualClock(new Date('2026-05-01T10:00:00Z'));
const hasher = watchedHasher();
let deps: TestDeps;
let key: string;
let workspaceId: string;
let userId: number;

const from = (sourceIp: string, credential: string) =>
  authenticate(deps, { authorization: `Bearer ${credential}`, method: 'GET', sourceIp });
/** A wrong key with the prefix of `of`: found by its prefix, so only bcrypt can refuse it. */
const wrongKeyLike = (of: string, i: number) => of.slice(0, 16) + String(i).padStart(12, 'x') + 'y'.repeat(12);
/**
 * Runs `attempt(0)` … `attempt(count - 1)` at once. Used where no attempt's answer depends on
 * another's order: the windows take attempts atomically, so racing ones count as sequential ones.
 */
const atOnce = <T>(count: number, attempt: (i: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, i) => attempt(i)));

beforeAll(async () => {
  deps = await testDeps({ clock, hasher });
  userId = (await createUser(deps, { name: 'Gus', email: 'gus@example.com', tier: 'pro' })).id;
  workspaceId = (await createWorkspace(deps, userId, { name: 'Guarded', tier: 'pro' })).id;
  key = (await issueApiKey(deps, userId, workspaceId, { name: 'known prefix' })).key;
});

const { perPrefix, perAddress, pastCeiling } = failedAuthenticationPolicy;
const newKey = async (name: string, extra: { expiresAt?: string } = {}) => issueApiKey(deps, userId, workspaceId, { name, ...extra });

describe('failed authentications', () => {
  it("throttle one key's prefix from an address with 429 and Retry-After before bcrypt runs; other keys from that address keep working", async () => {
    const address = '198.51.100.7';
    await expect(from(address, key)).resolves.toMatchObject({ workspaceId });
    for (let i = 0; i < perPrefix.limit; i++) {
      expect((await errorOf(from(address, wrongKeyLike(key, i)))).errorCode).toBe('INVALID_API_KEY');
    }
    const before = hasher.comparisons;
    const throttled = await errorOf(from(address, wrongKeyLike(key, 999)));
    expect(throttled.status).toBe(429);
    expect(throttled.errorCode).toBe('RATE_LIMIT_EXCEEDED');
    expect(throttled.message).toContain(key.slice(0, 16));
    expect(Number(throttled.headers['Retry-After'])).toBeGreaterThan(0);
    expect(throttled.extras.retry_after).toBe(Number(throttled.headers['Retry-After']));
    expect(hasher.comparisons).toBe(before);

    // Verified in this process before: no bcrypt, no throttle.
    await expect(from(address, key)).resolves.toMatchObject({ workspaceId });
    // A neighbour's key this process never saw, from the same address, is verified as usual...
    const neighbour = (await newKey('neighbour')).key;
    await expect(from(address, neighbour)).resolves.toMatchObject({ workspaceId });
    // ...and so is a fresh session of another user there.
    const otherId = (await createUser(deps, { name: 'Ned', email: 'ned@example.com', tier: 'pro', password: 'neighbour password' })).id;
    await createWorkspace(deps, otherId, { name: 'Next door' });
    const { sessionId } = await login(deps, { email: 'ned@example.com', password: 'neighbour password', sourceIp: address });
    await expect(authenticate(deps, { cookie: `session=${sessionId}`, method: 'GET', sourceIp: address })).resolves.toMatchObject({
      userId: otherId,
    });
  });

  it('bound the bcrypt work of one address over all prefixes: past the ceiling its unverified keys wait, verified ones keep working', async () => {
    const address = '198.51.100.20';
    const keys = await Promise.all(
      Array.from({ length: Math.ceil(perAddress.limit / perPrefix.limit) + 1 }, (_, i) => newKey(`ceiling ${i}`)),
    );
    const inUse = keys.at(-1)!.key;
    await expect(from(address, inUse)).resolves.toMatchObject({ workspaceId });
    let failures = 0;
    for (const { key: known } of keys.slice(0, -1)) {
      const now = Math.min(perPrefix.limit, perAddress.limit - failures);
      failures += now;
      await atOnce(now, async (i) => expect((await errorOf(from(address, wrongKeyLike(known, i)))).status).toBe(401));
    }
    expect(failures).toBe(perAddress.limit);
    const before = hasher.comparisons;
    const fresh = (await newKey('after the ceiling')).key;
    const throttled = await errorOf(from(address, fresh));
    expect([throttled.status, throttled.message]).toEqual([429, expect.stringContaining('over all keys')]);
    expect(hasher.comparisons).toBe(before);
    // What costs no bcrypt is still answered as it is: an unknown prefix is a 401, not a 429.
    expect((await errorOf(from(address, `sk_live_${'Q'.repeat(32)}`))).status).toBe(401);
    await expect(from(address, inUse)).resolves.toMatchObject({ workspaceId });
    await expect(from('198.51.100.21', fresh)).resolves.toMatchObject({ workspaceId });
  });

  it('answer failures that cost no bcrypt (unknown prefix, revoked, rotated past its grace, expired) without one, and lock nobody out', async () => {
    const address = '198.51.100.30';
    const revoked = await newKey('revoked');
    await revokeApiKey(deps, { userId }, workspaceId, revoked.id);
    const rotated = await newKey('rotated');
    const principal = await from('198.51.100.31', rotated.key);
    await rotateApiKey(deps, principal, workspaceId, rotated.id, 1);
    const expiring = await newKey('expiring', { expiresAt: new Date(clock.now().getTime() + 60_000).toISOString() });
    clock.advance(3600 * 1000 + 1000);

    const before = hasher.comparisons;
    for (let i = 0; i < perAddress.limit + perPrefix.limit; i += perPrefix.limit) {
      await atOnce(perPrefix.limit, async (j) => {
        expect((await errorOf(from(address, `sk_live_${String(i + j).padStart(32, 'Z')}`))).errorCode).toBe('INVALID_API_KEY');
        expect((await errorOf(from(address, wrongKeyLike(revoked.key, i + j)))).errorCode).toBe('INVALID_API_KEY');
        expect((await errorOf(from(address, wrongKeyLike(rotated.key, i + j)))).errorCode).toBe('INVALID_API_KEY');
        expect((await errorOf(from(address, wrongKeyLike(expiring.key, i + j)))).errorCode).toBe('TOKEN_EXPIRED');
      });
    }
    expect((await errorOf(from(address, revoked.key))).errorCode).toBe('INVALID_API_KEY');
    expect((await errorOf(from(address, expiring.key))).errorCode).toBe('TOKEN_EXPIRED');
    expect(hasher.comparisons).toBe(before);
    // None of it counted: a wrong secret of a live key is still a plain 401 there, and a right one works.
    expect((await errorOf(from(address, wrongKeyLike(key, 1234)))).status).toBe(401);
    await expect(from(address, (await newKey('still welcome')).key)).resolves.toMatchObject({ workspaceId });
  });

  it('hold when wrong secrets race: of 60 at once for one prefix, 20 run a bcrypt and the rest wait', async () => {
    const address = '198.51.100.40';
    const before = hasher.comparisons;
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => errorOf(from(address, wrongKeyLike(key, 1000 + i)))));
    const statuses = answers.map((a) => a.status);
    expect([statuses.filter((s) => s === 401).length, statuses.filter((s) => s === 429).length]).toEqual([
      perPrefix.limit,
      60 - perPrefix.limit,
    ]);
    expect(hasher.comparisons - before).toBe(perPrefix.limit);
  });

  it('keep serving, past the address ceiling and in any process, a key that verified from the address; a key new there waits', async () => {
    const address = '198.51.100.50';
    const regular = (await newKey('used from here every day')).key;
    await expect(from(address, regular)).resolves.toMatchObject({ workspaceId });
    const guessed = await Promise.all(Array.from({ length: perAddress.limit / perPrefix.limit }, (_, i) => newKey(`guessed ${i}`)));
    for (const { key: known } of guessed) {
      await atOnce(perPrefix.limit, async (i) => expect((await errorOf(from(address, wrongKeyLike(known, i)))).status).toBe(401));
    }
    const fresh = (await newKey('new here')).key;
    expect((await errorOf(from(address, fresh))).status).toBe(429);
    await jest.isolateModulesAsync(async () => {
      // Another process: it never verified the regular key, but the table says the key works from here.
      const other = await import('#core/credentials/authenticate');
      await expect(
        other.authenticate(deps, { authorization: `Bearer ${regular}`, method: 'GET', sourceIp: address }),
      ).resolves.toMatchObject({ workspaceId });
      await expect(other.authenticate(deps, { authorization: `Bearer ${fresh}`, method: 'GET', sourceIp: address })).rejects.toMatchObject({
        status: 429,
      });
    });
  });

  it("bound an address's bcrypts past its ceiling to a second budget, however many keys of its own it made known there", async () => {
    const address = '198.51.100.60';
    const count = (perAddress.limit + pastCeiling.limit) / perPrefix.limit + 2;
    // More keys than a pro workspace holds: an enterprise one of the attacker's own.
    const attacker = (await createUser(deps, { name: 'Many Keys', email: 'many-keys@example.com', tier: 'enterprise' })).id;
    const theirs = (await createWorkspace(deps, attacker, { name: 'Many keys', tier: 'enterprise' })).id;
    const own = await Promise.all(
      Array.from({ length: count }, (_, i) => issueApiKey(deps, attacker, theirs, { name: `made known ${i}` })),
    );
    // Each used once from the address: all known there now.
    await atOnce(count, (i) => expect(from(address, own[i]!.key)).resolves.toMatchObject({ workspaceId: theirs }));
    const before = hasher.comparisons;
    const answers: number[] = [];
    for (const { key: mine } of own) {
      answers.push(...(await atOnce(perPrefix.limit, async (i) => (await errorOf(from(address, wrongKeyLike(mine, i)))).status)));
    }
    expect(hasher.comparisons - before).toBe(perAddress.limit + pastCeiling.limit);
    expect(answers.filter((status) => status === 401)).toHaveLength(perAddress.limit + pastCeiling.limit);
  });

  it('count an IPv6 client by its /64, and its IPv4-mapped form as the IPv4 address', async () => {
    for (let i = 0; i < perPrefix.limit; i++) await errorOf(from(`2001:db8:1:2::${i + 1}`, wrongKeyLike(key, 100 + i)));
    expect((await errorOf(from('2001:db8:1:2:ffff::9', wrongKeyLike(key, 200)))).status).toBe(429);
    expect((await errorOf(from('2001:db8:1:3::1', wrongKeyLike(key, 201)))).status).toBe(401);

    for (let i = 0; i < perPrefix.limit; i++) await errorOf(from('192.0.2.44', wrongKeyLike(key, 300 + i)));
    expect((await errorOf(from('::ffff:192.0.2.44', wrongKeyLike(key, 400)))).status).toBe(429);
  });

  it('remember a refused secret: the same wrong key costs no second bcrypt and is not counted twice', async () => {
    const wrong = wrongKeyLike(key, 500);
    const before = hasher.comparisons;
    for (let i = 0; i < perPrefix.limit * 2; i++) {
      expect((await errorOf(from('203.0.113.50', wrong))).errorCode).toBe('INVALID_API_KEY');
    }
    expect(hasher.comparisons - before).toBe(1);
  });

  it('run at most two bcrypt compares at once in a process; the others wait their turn', async () => {
    hasher.mostAtOnce = 0;
    hasher.holdMs = 100;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => errorOf(from(`203.0.113.${60 + i}`, wrongKeyLike(key, 600 + i)))),
    );
    expect(answers.map((a) => a.errorCode)).toEqual(Array(8).fill('INVALID_API_KEY'));
    expect(hasher.mostAtOnce).toBe(2);
    hasher.holdMs = 0;
  });

  it('are counted in the table, so a process that never saw the address refuses the prefix before bcrypt', async () => {
    const address = '203.0.113.80';
    for (let i = 0; i < perPrefix.limit; i++) await errorOf(from(address, wrongKeyLike(key, 700 + i)));
    await jest.isolateModulesAsync(async () => {
      const fresh = await import('#core/credentials/authenticate');
      const before = hasher.comparisons;
      // The fresh module graph has its own ApiError class: the status is what counts.
      const answer = fresh.authenticate(deps, { authorization: `Bearer ${wrongKeyLike(key, 799)}`, method: 'GET', sourceIp: address });
      await expect(answer).rejects.toMatchObject({ status: 429 });
      expect(hasher.comparisons).toBe(before);
    });
  });

  it('end with their window: the address may try again', async () => {
    const address = '203.0.113.90';
    for (let i = 0; i < perPrefix.limit; i++) await errorOf(from(address, wrongKeyLike(key, 800 + i)));
    expect((await errorOf(from(address, wrongKeyLike(key, 899)))).status).toBe(429);
    clock.advance(perPrefix.windowSeconds * 1000);
    expect((await errorOf(from(address, wrongKeyLike(key, 898)))).status).toBe(401);
  });
});
