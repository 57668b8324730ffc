import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type MeterInput, meterRequest } from '#core/metering/usage-meter';
import { ApiError } from '#core/platform/errors';
import { monthOf } from '#core/platform/periods';
import { allowanceOf } from '#core/platform/rate-limits';
import { type MeterItem, meterPartition, type SubjectWindow, windowAttribute } from '#core/store/meter-items';
import { manualClock, type TestDeps, testDeps } from '../support/deps.ts';

const clock = manualClock(new Date('2026-05-01T10:00:05Z'));
let deps: TestDeps;
beforeAll(async () => {
  deps = await testDeps({ clock });
});
afterAll(() => deps.close());

let workspaces = 0;
/** A request of an API key of its own workspace, on `tier`. */
const keyRequest = (tier: MeterInput['tier'], apiCallsLimit: number | null = null, id = `key_${++workspaces}`): MeterInput => ({
  workspaceId: `wks_meter${workspaces}`,
  userId: 1,
  environment: 'live',
  tier,
  credential: { type: 'api_key', id },
  apiCallsLimit,
});

/** Meters `count` requests at once; how many passed, and the codes of the refusals. */
async function burst(input: MeterInput, count: number) {
  const outcomes = await Promise.allSettled(Array.from({ length: count }, () => meterRequest(deps, input)));
  const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
  for (const reason of refused) if (!(reason instanceof ApiError)) throw reason;
  return { passed: outcomes.length - refused.length, refusals: refused.map((r: ApiError) => r.errorCode) };
}

async function meterItems(workspaceId: string) {
  const { Items = [] } = await deps.client.send(
    new QueryCommand({
      TableName: deps.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': meterPartition(workspaceId, 'live', monthOf(clock.now()).key) },
    }),
  );
  return Items as MeterItem[];
}

describe('the usage meter', () => {
  it('admits exactly the allowance of a window however many requests race, and counts no refusal', async () => {
    const input = keyRequest('free');
    const { passed, refusals } = await burst(input, 90);
    expect(passed).toBe(60);
    expect(new Set(refusals)).toEqual(new Set(['RATE_LIMIT_EXCEEDED']));
    const [item] = await meterItems(input.workspaceId);
    expect(item!.calls).toBe(60);
    expect(item![windowAttribute(input.credential.id)]).toMatchObject({ n: 60, t: 60 });
  });

  it('opens a new window each minute and keeps the month total per subject', async () => {
    const input = keyRequest('free');
    expect((await burst(input, 61)).passed).toBe(60);
    clock.advance(60_000);
    const next = await meterRequest(deps, input);
    expect(next.rate).toMatchObject({ limit: 60, remaining: 59 });
    expect(next.apiCallsUsed).toBe(61);
    const [item] = await meterItems(input.workspaceId);
    expect(item![windowAttribute(input.credential.id)]).toMatchObject({ n: 1, t: 61 });
  });

  it('never passes the monthly quota, and refuses with QUOTA_EXCEEDED and its figures', async () => {
    const input = keyRequest('pro', 25);
    const { passed, refusals } = await burst(input, 40);
    expect(passed).toBe(25);
    expect(new Set(refusals)).toEqual(new Set(['QUOTA_EXCEEDED']));
    const refusal = await meterRequest(deps, input).catch((error: ApiError) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).extras).toMatchObject({
      quota_type: 'api_calls',
      limit: 25,
      used: 25,
      reset_at: monthOf(clock.now()).end.toISOString(),
    });
    expect((refusal as ApiError).headers['Retry-After']).toBeDefined();
    expect((refusal as ApiError).headers['X-RateLimit-Limit']).toBe(String(allowanceOf('pro', 'live').limit));
  });

  it("counts a user's sessions, user tokens and OAuth tokens as one subject", async () => {
    const session = { ...keyRequest('free'), credential: { type: 'session', id: 's1' } } as const;
    const token = { ...session, credential: { type: 'user_token', id: '7' } } as const;
    await burst(session, 40);
    const { passed } = await burst(token, 40);
    expect(passed).toBe(20);
    const [item] = await meterItems(session.workspaceId);
    expect(item![windowAttribute('user:1')]).toMatchObject({ n: 60, t: 60 });
  });

  it('spreads an enterprise key over shards that each stay within their share', async () => {
    const input = keyRequest('enterprise');
    const { shards, perShard } = allowanceOf('enterprise', 'live');
    await burst(input, 400);
    const items = await meterItems(input.workspaceId);
    expect(items.length).toBeGreaterThan(1);
    expect(items.length).toBeLessThanOrEqual(shards);
    const total = items.reduce((sum, item) => sum + item.calls!, 0);
    expect(total).toBe(400);
    for (const item of items) expect((item[windowAttribute(input.credential.id)] as SubjectWindow).n).toBeLessThanOrEqual(perShard);
  });
});
