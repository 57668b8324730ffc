import { UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { expiredRetentionSeconds } from '#core/access/credential-lifecycle';
import type { Principal } from '#core/access/principal';
import { login } from '#core/accounts/sessions';
import { loginThrottles } from '#core/accounts/throttles';
import { issueApiKey, revokeApiKey, rotateApiKey } from '#core/api-keys/api-keys';
import { authenticate } from '#core/credentials/authenticate';
import { sessionCookie } from '#core/credentials/credential-header';
import { type PruneCounts, pruneExpired } from '#core/operations/pruning';
import type { Deps } from '#core/ports/deps';
import { tableDesign } from '#core/store/table';
import { reserveAttempt } from '#core/store/throttle-windows';
import { issueUserToken } from '#core/users/user-tokens';
import { createUser } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { ensureTable } from '#lib/local/table-setup';
import { depsOnTable, manualClock, testTableName } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';
import { ownerPrincipal } from '../support/principals.ts';

const second = 1000;
const hour = 3600 * second;
const retentionMs = expiredRetentionSeconds * second;
const none: PruneCounts = {
  apiKeys: 0,
  userTokens: 0,
  invitations: 0,
  pendingInvitations: 0,
  accountTokens: 0,
  sessions: 0,
  throttleWindows: 0,
};

interface World {
  deps: Deps;
  clock: ReturnType<typeof manualClock>;
  /** Every DynamoDB command the store sent, by name. */
  commands: string[];
  userId: number;
  workspaceId: string;
  principal: Principal;
}

/**
 * A fresh table, a manual clock at a round hour, and a user with a workspace and a password.
 * DynamoDB Local runs TTL too, on the real clock: it is turned off here, so that only the
 * pruning job deletes anything while the test moves time.
 */
async function world(): Promise<World> {
  const commands: string[] = [];
  const clock = manualClock(new Date('2026-03-01T00:00:00Z'));
  const deps = depsOnTable(testTableName(), {
    clock,
    documentClient: (client) => {
      client.middlewareStack.add(
        (next, context) => (args) => {
          commands.push(String(context.commandName));
          return next(args);
        },
        { step: 'initialize', name: 'recordCommands' },
      );
      return client;
    },
  });
  await ensureTable(deps.client, deps.tableName);
  await deps.client.send(
    new UpdateTimeToLiveCommand({
      TableName: deps.tableName,
      TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: false },
    }),
  );
  const userId = (await createUser(deps, { name: 'Pat', email: 'pat@example.com', tier: 'pro', password: 'correct horse' })).id;
  const workspaceId = (await createWorkspace(deps, userId, { name: 'Prunes', tier: 'pro' })).id;
  const principal = ownerPrincipal(userId, workspaceId);
  return { deps, clock, commands, userId, workspaceId, principal };
}

const bearer = (deps: Deps, token: string) =>
  authenticate(deps, { authorization: `Bearer ${token}`, method: 'GET', sourceIp: '203.0.113.7' });
const inFuture = (w: World, ms: number) => new Date(w.clock.now().getTime() + ms).toISOString();

describe('pruning API keys', () => {
  it('keeps an expired key answering TOKEN_EXPIRED through its 30 days of retention, and prunes it when they end', async () => {
    const w = await world();
    const expiring = await issueApiKey(w.deps, w.userId, w.workspaceId, { name: 'brief', expiresAt: inFuture(w, hour) });
    const lasting = await issueApiKey(w.deps, w.userId, w.workspaceId, { name: 'lasting' });

    w.clock.advance(hour);
    expect((await errorOf(bearer(w.deps, expiring.key))).errorCode).toBe('TOKEN_EXPIRED');
    expect(await pruneExpired(w.deps)).toEqual(none);

    w.clock.advance(retentionMs - second);
    expect(await pruneExpired(w.deps)).toEqual(none);
    const stillExpired = await errorOf(bearer(w.deps, expiring.key));
    expect(stillExpired.errorCode).toBe('TOKEN_EXPIRED');
    expect(stillExpired.meta).toEqual({ expired_at: expiring.expires_at });

    w.clock.advance(second);
    expect(await pruneExpired(w.deps)).toEqual({ ...none, apiKeys: 1 });
    expect((await w.deps.db.entities.apiKey.get({ workspaceId: w.workspaceId, id: expiring.id }).go()).data).toBeNull();
    expect((await errorOf(bearer(w.deps, expiring.key))).errorCode).toBe('INVALID_API_KEY');

    w.clock.advance(10 * 365 * 24 * hour);
    expect(await pruneExpired(w.deps)).toEqual(none);
    await expect(bearer(w.deps, lasting.key)).resolves.toMatchObject({ credential: { type: 'api_key', id: lasting.id } });
  });

  it('deletes a revoked key at once: it answers 401, rotating it 404, and nothing is left to prune', async () => {
    const w = await world();
    const issued = await issueApiKey(w.deps, w.userId, w.workspaceId, { name: 'revoked' });
    await revokeApiKey(w.deps, { userId: w.userId }, w.workspaceId, issued.id);
    expect((await errorOf(bearer(w.deps, issued.key))).errorCode).toBe('INVALID_API_KEY');
    expect((await w.deps.db.entities.apiKey.get({ workspaceId: w.workspaceId, id: issued.id }).go()).data).toBeNull();
    expect((await errorOf(rotateApiKey(w.deps, w.principal, w.workspaceId, issued.id, 1))).status).toBe(404);
    w.clock.advance(retentionMs + second);
    expect(await pruneExpired(w.deps)).toEqual(none);
  });

  it('keeps a rotated key working through its grace period, prunes it when that ends, and keeps its successor', async () => {
    const w = await world();
    const old = await issueApiKey(w.deps, w.userId, w.workspaceId, { name: 'rotating' });
    const successor = await rotateApiKey(w.deps, w.principal, w.workspaceId, old.id, 24);

    w.clock.advance(24 * hour - second);
    await expect(bearer(w.deps, old.key)).resolves.toBeDefined();
    expect(await pruneExpired(w.deps)).toEqual(none);

    w.clock.advance(second);
    expect(await pruneExpired(w.deps)).toEqual({ ...none, apiKeys: 1 });
    expect((await errorOf(bearer(w.deps, old.key))).errorCode).toBe('INVALID_API_KEY');
    await expect(bearer(w.deps, successor.key)).resolves.toMatchObject({ credential: { id: successor.id } });
  });
});

describe('pruning user tokens, sessions and throttle windows', () => {
  it('keeps an expired user token answering TOKEN_EXPIRED through its retention, then prunes it', async () => {
    const w = await world();
    const issued = await issueUserToken(w.deps, w.principal, w.workspaceId, { name: 'cli', expiresAt: inFuture(w, hour) });
    await issueUserToken(w.deps, w.principal, w.workspaceId, { name: 'forever' });

    w.clock.advance(hour + retentionMs - second);
    expect((await errorOf(bearer(w.deps, issued.token))).errorCode).toBe('TOKEN_EXPIRED');
    expect(await pruneExpired(w.deps)).toEqual(none);

    w.clock.advance(second);
    expect(await pruneExpired(w.deps)).toEqual({ ...none, userTokens: 1 });
    expect((await w.deps.db.entities.userToken.get({ id: issued.id }).go()).data).toBeNull();
    expect((await errorOf(bearer(w.deps, issued.token))).errorCode).toBe('UNAUTHENTICATED');
  });

  it('prunes a session the moment it ends, not a millisecond before', async () => {
    const w = await world();
    const session = await login(w.deps, { email: 'pat@example.com', password: 'correct horse', sourceIp: '203.0.113.7' });
    const byCookie = () =>
      authenticate(w.deps, { cookie: `${sessionCookie}=${session.sessionId}`, method: 'GET', sourceIp: '203.0.113.7' });

    w.clock.advance(session.expiresAt.getTime() - w.clock.now().getTime() - 1);
    await expect(byCookie()).resolves.toMatchObject({ credential: { type: 'session' } });
    // The login's own attempt windows (email and address) closed long before the session ends.
    expect(await pruneExpired(w.deps)).toEqual({ ...none, throttleWindows: 2 });

    w.clock.advance(1);
    expect(await pruneExpired(w.deps)).toEqual({ ...none, sessions: 1 });
    expect((await errorOf(byCookie())).status).toBe(401);
  });

  it('prunes throttle windows once they close, and keeps the open one', async () => {
    const w = await world();
    const wrong = { email: 'pat@example.com', password: 'wrong', sourceIp: '203.0.113.7' };
    // A failed login counts against the email and the address: two windows of 15 minutes.
    expect((await errorOf(login(w.deps, wrong))).status).toBe(401);

    w.clock.advance(15 * 60 * second - second);
    expect(await pruneExpired(w.deps)).toEqual(none);

    w.clock.advance(second);
    expect((await errorOf(login(w.deps, wrong))).status).toBe(401);
    expect(await pruneExpired(w.deps)).toEqual({ ...none, throttleWindows: 2 });
    const { data: open } = await w.deps.db.entities.throttleWindow.query.bySubject({ subject: `login:address:${wrong.sourceIp}` }).go();
    expect(open).toEqual([expect.objectContaining({ count: 1, windowStart: w.clock.now().getTime() / 1000 })]);
  });
});

describe('pruning at scale', () => {
  const closedWindows = async (w: World, n: number) => {
    for (let i = 0; i < n; i++) await reserveAttempt(w.deps, `test:${i}`, loginThrottles.email, 'limited');
    w.clock.advance(loginThrottles.email.windowSeconds * second);
  };

  it('finds candidates with Queries on the sparse index, never a Scan, and works a backlog off page by page', async () => {
    const w = await world();
    await closedWindows(w, 25);
    w.commands.length = 0;

    const first = await pruneExpired(w.deps, { pageSize: 10, shouldStop: () => true });
    expect(first).toEqual({ ...none, throttleWindows: 10 });
    expect(await pruneExpired(w.deps, { pageSize: 10 })).toEqual({ ...none, throttleWindows: 15 });
    expect(await pruneExpired(w.deps, { pageSize: 10 })).toEqual(none);

    expect(new Set(w.commands)).toEqual(new Set(['QueryCommand', 'DeleteItemCommand']));
  });

  it('deletes each item once when two runs overlap', async () => {
    const w = await world();
    await closedWindows(w, 20);
    const [a, b] = await Promise.all([pruneExpired(w.deps, { pageSize: 5 }), pruneExpired(w.deps, { pageSize: 5 })]);
    expect(a.throttleWindows + b.throttleWindows).toBe(20);
    expect(await pruneExpired(w.deps)).toEqual(none);
  });
});
