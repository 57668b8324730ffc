import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '#core/access/principal';
import { BoundedCache } from '#core/platform/bounded-cache';
import { QuotaExceeded, RateLimited } from '#core/platform/errors';
import { monthlyCounterTtl, monthOf } from '#core/platform/periods';
import { allowanceOf, type RateLimitState, rateLimitHeaders, rateWindowOf, rateWindowSeconds } from '#core/platform/rate-limits';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import { dayAttribute, type MeterItem, meterKey, type SubjectWindow, windowAttribute } from '#core/store/meter-items';

/** Who a request is counted for: an API key by itself; a user's sessions, user tokens and OAuth tokens together. */
const meterSubject = (principal: Pick<Principal, 'credential' | 'userId'>): string =>
  principal.credential.type === 'api_key' ? principal.credential.id : `user:${principal.userId}`;

/** The shard a request is counted on: any of its subject's, at random (always 0 for one). */
export const pickShard = (shards: number): number => Math.floor(Math.random() * shards);

export interface MeterReading {
  rate: RateLimitState;
  /** The month's api_calls on the shard written: the workspace's own when it has one shard. */
  apiCallsUsed: number;
}

/** How the subject's window stands on the shard: the same window, an older one, or none yet. */
type WindowCase = 'same' | 'older' | 'none';

/** Per process: the window this process last counted each subject's shard in, to pick the update that will hold. */
const lastWindows = new BoundedCache<number>();

/**
 * Per process: refusals that hold until a moment (a full shard until its window ends, a
 * spent quota until the month ends), answered again without a write: a client that keeps
 * calling over its allowance costs DynamoDB one refused write per shard and window.
 */
const refusals = new BoundedCache<{ until: number; refuse: (now: Date) => Error }>();

function refuseUntil(key: string, until: Date, refuse: (now: Date) => Error, now: Date): Error {
  refusals.set(key, { until: until.getTime(), refuse });
  return refuse(now);
}

const updates: Record<WindowCase, { set: string; condition: string }> = {
  same: { set: '#w.n = #w.n + :one, #w.t = #w.t + :one', condition: '#w.s = :win AND #w.n < :per' },
  older: { set: '#w.s = :win, #w.n = :one, #w.t = #w.t + :one', condition: '#w.s < :win' },
  none: { set: '#w = :fresh', condition: 'attribute_not_exists(#w)' },
};

interface MeterUpdate {
  table: string;
  key: ReturnType<typeof meterKey>;
  subject: string;
  windowCase: WindowCase;
  windowStart: number;
  perShard: number;
  quotaPerShard: number | null;
  now: Date;
}

/** The one UpdateItem of a metered request, for the case its window is in (the bench replays it). */
function meterUpdate(u: MeterUpdate): UpdateCommandInput {
  const { set, condition } = updates[u.windowCase];
  return {
    TableName: u.table,
    Key: u.key,
    UpdateExpression: `SET ${set}, #ttl = :ttl ADD calls :one, #d :one`,
    ConditionExpression: u.quotaPerShard === null ? condition : `(${condition}) AND (attribute_not_exists(calls) OR calls < :quota)`,
    ExpressionAttributeNames: { '#w': windowAttribute(u.subject), '#d': dayAttribute(u.now), '#ttl': 'ttl' },
    ExpressionAttributeValues: {
      ':one': 1,
      ':ttl': monthlyCounterTtl(monthOf(u.now)),
      ...(u.windowCase === 'none' ? { ':fresh': { s: u.windowStart, n: 1, t: 1 } } : { ':win': u.windowStart }),
      ...(u.windowCase === 'same' ? { ':per': u.perShard } : {}),
      ...(u.quotaPerShard === null ? {} : { ':quota': u.quotaPerShard }),
    },
    ReturnValues: 'UPDATED_NEW',
  };
}

export interface MeterInput extends Pick<Principal, 'workspaceId' | 'environment' | 'tier' | 'credential' | 'userId'> {
  /** The workspace's monthly api_calls limit (tier plus packages); null is unlimited. */
  apiCallsLimit: number | null;
}

/**
 * Counts one request against the allowance (rate-limits.ts) and the monthly api_calls quota in
 * one conditional UpdateItem, so that neither is passed however many requests race. The quota
 * is checked on the shard written, which is the whole count wherever it is finite (one shard).
 */
export async function meterRequest(deps: Deps, input: MeterInput): Promise<MeterReading> {
  const now = deps.clock.now();
  const { limit, shards, perShard } = allowanceOf(input.tier, input.environment);
  const window = rateWindowOf(now);
  const month = monthOf(now);
  const shard = pickShard(shards);
  const subject = meterSubject(input);
  const key = meterKey(input.workspaceId, input.environment, month.key, shard);
  const quotaPerShard = input.apiCallsLimit === null ? null : Math.ceil(input.apiCallsLimit / shards);
  const cacheKey = `${key.pk}|${key.sk}|${subject}`;
  const rateState = (count: number): RateLimitState => ({
    limit,
    remaining: Math.max(0, (perShard - count) * shards),
    resetAt: window.end,
  });
  const { client, name: table } = deps.db.table;

  const quotaKey = `${key.pk}|${key.sk}|quota:${quotaPerShard}`;
  for (const refusalKey of [quotaKey, cacheKey]) {
    const refusal = refusals.get(refusalKey);
    if (refusal && now.getTime() < refusal.until) throw refusal.refuse(now);
  }

  const lastWindow = lastWindows.get(cacheKey);
  let windowCase: WindowCase = lastWindow === window.start ? 'same' : lastWindow !== undefined ? 'older' : 'none';
  let windowStart = window.start;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const update = meterUpdate({ table, key, subject, windowCase, windowStart, perShard, quotaPerShard, now });
      const { Attributes } = await client.send(new UpdateCommand(update));
      lastWindows.set(cacheKey, windowStart);
      const counted = Attributes as MeterItem;
      const inWindow = (counted[windowAttribute(subject)] as Partial<SubjectWindow> | undefined)?.n ?? 1;
      return { rate: rateState(inWindow), apiCallsUsed: counted.calls ?? 1 };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // The condition did not hold: read the shard to see why, then refuse or take the update that fits.
    const { Item } = await client.send(
      new GetCommand({
        TableName: table,
        Key: key,
        ProjectionExpression: 'calls, #w',
        ExpressionAttributeNames: { '#w': windowAttribute(subject) },
        ConsistentRead: true,
      }),
    );
    const item = (Item ?? {}) as MeterItem;
    const current = item[windowAttribute(subject)] as SubjectWindow | undefined;
    if (quotaPerShard !== null && (item.calls ?? 0) >= quotaPerShard) {
      const used = (item.calls ?? 0) * shards;
      const state = rateState(current && current.s >= window.start ? current.n : 0);
      throw refuseUntil(
        quotaKey,
        month.end,
        (at) => new QuotaExceeded('api_calls', input.apiCallsLimit!, used, month.end, at, rateLimitHeaders(state)),
        now,
      );
    }
    // Another process may run a little ahead of our clock: its window is the current one.
    windowStart = Math.max(window.start, current?.s ?? 0);
    if (current && current.s >= windowStart && current.n >= perShard) {
      const state = rateState(current.n);
      const windowEnd = new Date((windowStart + rateWindowSeconds) * 1000);
      const refuse = (at: Date) =>
        new RateLimited(`Rate limit of ${limit} requests per minute exceeded.`, limit, windowEnd, at, rateLimitHeaders(state));
      throw refuseUntil(cacheKey, windowEnd, refuse, now);
    }
    windowCase = !current ? 'none' : current.s >= windowStart ? 'same' : 'older';
  }
  throw new Error('The usage meter could not settle on an update in three attempts.');
}
