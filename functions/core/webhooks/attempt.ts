import type * as z from 'zod/mini';
import type { Deps } from '#core/ports/deps';
import type { DeliveryMessage } from '#core/ports/webhook-delivery';
import { isConditionFailure } from '#core/store/conditions';
import { hotPath } from '#core/store/database';
import { leavesDueIndex } from '#core/store/due-work';
import type { WebhookDeliveryItem, WebhookEndpointItem } from '#core/store/items';
import { moveDeliveryCounts } from './delivery-counts.ts';
import { attemptsKept } from './delivery-history.ts';
import { type DeliveryOptions, deliveryOptions } from './delivery-options.ts';
import type { attemptRecord } from './delivery-schemas.ts';
import { type CountedOutcome, countEndedDelivery } from './endpoint-health.ts';
import { isRetired, subscribesTo } from './endpoint-view.ts';
import { type AttemptOutcome, answerProblem, outcomeOf } from './outcome.ts';
import { type SendResult, send } from './sender.ts';
import { signedHeadersFor } from './signing-secrets.ts';
import { messageOf, wakeDelivery } from './wake.ts';

/** How early a wake-up may come and still find its attempt due (a local timer firing a hair early). */
const earlyWakeMs = 1_000;
/** How long a claimed attempt may take beyond its timeout before the sweeper wakes it again (its worker died). */
const claimMarginMs = 60_000;

/** One entry of a delivery's `attempts`. */
export type AttemptRecord = z.output<typeof attemptRecord>;

/**
 * Makes the attempt a message wakes the worker for, at most once at a time: one conditional
 * update claims it by moving `dueAt` to the end of a lease, on condition that the delivery
 * still waits for that attempt and it was due, so that a stale or repeated message is dropped.
 * A claim whose worker died lapses and the sweeper wakes the delivery again.
 */
export async function attemptDelivery(deps: Deps, message: DeliveryMessage, overrides: Partial<DeliveryOptions> = {}): Promise<void> {
  const options = deliveryOptions(overrides);
  const claimed = await claim(deps, message, options);
  if (!claimed) return;
  const { delivery, lease } = claimed;
  const startedAt = deps.clock.now();
  const endpoint = await endpointOf(deps, delivery);
  const result: SendResult = endpoint.item
    ? await sendTo(deps, endpoint.item, delivery, options)
    : { error: endpoint.problem, refused: true, responseTimeMs: 0 };
  const outcome: AttemptOutcome = endpoint.item ? outcomeOf(result, delivery.attempt, options.retryScale) : { next: 'failed' };
  // An attempt that ends the delivery on its endpoint counts it there (not one that found the endpoint gone, disabled, or no longer subscribed: no receiver failed).
  const countedAs = endpoint.item && outcome.next !== 'retrying' ? outcome.next : undefined;
  const recorded = await record(deps, delivery, lease, startedAt, result, outcome, countedAs);
  if (!recorded) return;
  if (countedAs && endpoint.item) await countEndedDelivery(deps, endpoint.item, delivery.countedAs, countedAs, options.disableAfter);
  if (recorded.next) await wakeDelivery(deps, messageOf(recorded.next), new Date(recorded.next.dueAt));
}

/** Claims the message's attempt if the delivery waits for it and it is due: the delivery and the lease's end (its new `dueAt`), or undefined. */
async function claim(
  deps: Deps,
  message: DeliveryMessage,
  options: DeliveryOptions,
): Promise<{ delivery: WebhookDeliveryItem; lease: string } | undefined> {
  const now = deps.clock.now().getTime();
  const lease = new Date(now + options.timeoutMs + claimMarginMs).toISOString();
  const dueBy = new Date(now + earlyWakeMs).toISOString();
  try {
    const { data } = await deps.db.entities.webhookDelivery
      .patch({ webhookId: message.webhookId, id: message.deliveryId })
      .set({ dueAt: lease })
      .where(
        (attr, op) =>
          `(${op.eq(attr.status, 'pending')} OR ${op.eq(attr.status, 'retrying')}) AND ${op.eq(attr.attempt, message.attempt)}` +
          ` AND ${op.lte(attr.dueAt, dueBy)} AND ${op.gt(attr.ttl, Math.floor(now / 1000))}`,
      )
      .go({ ...hotPath, response: 'all_new' });
    return { delivery: data as WebhookDeliveryItem, lease };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

type EndpointState = { item: WebhookEndpointItem; problem?: undefined } | { item?: undefined; problem: string };

/**
 * The endpoint the attempt sends to, read once (its URL and subscription of one moment), or
 * why the delivery ends unsent: deleted, no longer subscribed to the event's type (checked at
 * every attempt, subscribesTo), or disabled.
 */
async function endpointOf(deps: Deps, delivery: WebhookDeliveryItem): Promise<EndpointState> {
  const { data } = await deps.db.entities.webhookEndpoint
    .get({ workspaceId: delivery.workspaceId, environment: delivery.environment, id: delivery.webhookId })
    .go({ ...hotPath, consistent: true });
  if (!data || isRetired(data, deps.clock.now())) return { problem: 'The webhook endpoint was deleted.' };
  if (!subscribesTo(data, delivery.eventType))
    return { problem: `The endpoint no longer subscribes to ${delivery.eventType}; the delivery ended unsent.` };
  if (!data.isActive) return { problem: 'The webhook endpoint is disabled (is_active is false).' };
  return { item: data };
}

/** Signs and sends the event's body; an event gone (past its retention) is a failure without a send. */
async function sendTo(
  deps: Deps,
  endpoint: WebhookEndpointItem,
  delivery: WebhookDeliveryItem,
  options: DeliveryOptions,
): Promise<SendResult> {
  const { data: event } = await deps.db.entities.webhookEvent.get({ id: delivery.eventId }).go(hotPath);
  if (!event || event.ttl <= deps.clock.now().getTime() / 1000)
    return { error: 'The event is no longer kept.', refused: true, responseTimeMs: 0 };
  // A post's content only to an endpoint whose creator could read it.
  const body = endpoint.readsContent ? event.body : (event.bodyWithoutContent ?? event.body);
  const message = { eventId: event.id, eventType: event.type, body };
  // A secret that cannot be opened is recorded as the attempt's error, and tried again as the ladder says: a key put back in the configuration heals it.
  const signed = signedHeadersFor(deps.webhookSecrets, endpoint, message, deps.clock.now());
  if ('error' in signed) return { error: signed.error, responseTimeMs: 0 };
  return send({
    url: endpoint.url,
    headers: signed.headers,
    body,
    timeoutMs: options.timeoutMs,
    allowInsecure: options.allowInsecure,
  });
}

/**
 * Writes the attempt, the delivery's new state and what it now counts as on its endpoint
 * (`countedAs`) on condition that the claim still holds, so that of two workers only the one
 * whose write holds counts it; undefined when the claim had lapsed.
 */
async function record(
  deps: Deps,
  delivery: WebhookDeliveryItem,
  lease: string,
  startedAt: Date,
  result: SendResult,
  outcome: AttemptOutcome,
  countedAs: CountedOutcome | undefined,
) {
  const now = deps.clock.now();
  const error = result.error ?? (result.statusCode !== undefined ? answerProblem(result.statusCode, outcome) : undefined);
  const entry: AttemptRecord = {
    attempt: delivery.attempt,
    at: startedAt.toISOString(),
    ...(result.statusCode !== undefined ? { status_code: result.statusCode } : {}),
    ...(error !== undefined ? { error } : {}),
    response_time_ms: result.responseTimeMs,
  };
  const attempts = [...((delivery.attempts as AttemptRecord[] | undefined) ?? []), entry].slice(-attemptsKept);
  const retryAt = outcome.next === 'retrying' ? new Date(now.getTime() + outcome.delaySeconds * 1000).toISOString() : undefined;
  const set = {
    status: outcome.next,
    attempts,
    responseTimeMs: result.responseTimeMs,
    lastAttemptAt: startedAt.toISOString(),
    updatedAt: now.toISOString(),
    ...(result.statusCode !== undefined ? { responseCode: result.statusCode } : {}),
    ...(result.responseExcerpt !== undefined ? { responseExcerpt: result.responseExcerpt } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(countedAs ? { countedAs } : {}),
    ...(outcome.next === 'success' ? { deliveredAt: now.toISOString() } : {}),
    ...(retryAt ? { attempt: delivery.attempt + 1, nextRetryAt: retryAt, dueAt: retryAt } : {}),
  };
  const cleared = [
    ...(result.statusCode === undefined ? (['responseCode'] as const) : []),
    ...(result.responseExcerpt === undefined ? (['responseExcerpt'] as const) : []),
    ...(error === undefined ? (['error'] as const) : []),
    ...(retryAt ? [] : (['nextRetryAt', ...leavesDueIndex] as const)),
  ];
  try {
    await deps.db.entities.webhookDelivery
      .patch({ webhookId: delivery.webhookId, id: delivery.id })
      .set(set)
      .remove(cleared)
      .where(
        (attr, op) => `${op.eq(attr.status, delivery.status)} AND ${op.eq(attr.attempt, delivery.attempt)} AND ${op.eq(attr.dueAt, lease)}`,
      )
      .go({ ...hotPath, response: 'none' });
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
  if (outcome.next !== delivery.status)
    await moveDeliveryCounts(deps, delivery.webhookId, delivery.ttl, { [delivery.status]: -1, [outcome.next]: 1 });
  return { next: retryAt ? { ...delivery, attempt: delivery.attempt + 1, dueAt: retryAt } : undefined };
}
