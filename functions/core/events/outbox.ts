import type { Environment } from '#core/platform/environments';
import { newId } from '#core/platform/ids';
import { telemetry } from '#core/platform/telemetry';
import type { Deps } from '#core/ports/deps';
import { commitOrThrow } from '#core/store/conditions';
import type { Database } from '#core/store/database';
import type { WebhookEventItem } from '#core/store/items';
import type { EventType } from './event-types.ts';

/** How long an event, and each of its deliveries, is kept: well past the last rung of the retry ladder. */
export const eventRetentionDays = 30;

/** Where an event belongs: the workspace and environment whose endpoints may receive it. */
export interface EventOrigin {
  workspaceId: string;
  environment: Environment;
}

/** An event to emit: its type, where it belongs, and `data`, the resource as the API returns it. */
export interface NewEvent {
  type: EventType;
  origin: EventOrigin;
  data: object;
  /** `data` as a credential without posts:read-content sees it: what endpoints whose creator lacked that scope receive. */
  withoutContent?: object;
}

type WriteTransaction = Parameters<Database['transaction']['write']>[0];
type TransactionEntities = Parameters<WriteTransaction>[0];
type TransactionItems = ReturnType<WriteTransaction>;

/** The event's record, with its envelope serialised once: every attempt sends these bytes. */
export function eventRecordOf(event: NewEvent, now: Date): WebhookEventItem {
  const id = newId('event', now);
  const createdAt = now.toISOString();
  const envelope = { id, type: event.type, created_at: createdAt, workspace_id: event.origin.workspaceId, data: event.data };
  return {
    id,
    type: event.type,
    workspaceId: event.origin.workspaceId,
    environment: event.origin.environment,
    body: JSON.stringify(envelope),
    ...(event.withoutContent && { bodyWithoutContent: JSON.stringify({ ...envelope, data: event.withoutContent }) }),
    createdAt,
    ttl: Math.floor(now.getTime() / 1000) + eventRetentionDays * 86_400,
    dueAt: createdAt,
  };
}

/**
 * The outbox: a change and its events in one transaction, so that an event exists exactly when
 * its change does; the request to fan them out may then be lost, as the sweeper finds them in
 * the due index. Every write that emits events goes through here (or `emitEvents`).
 */
export async function commitWithEvents(
  deps: Deps,
  events: readonly NewEvent[],
  build: (entities: TransactionEntities) => TransactionItems,
) {
  const now = deps.clock.now();
  const records = events.map((event) => eventRecordOf(event, now));
  await commitOrThrow(() =>
    deps.db.transaction
      .write((entities) => [...build(entities), ...records.map((record) => entities.webhookEvent.create(record).commit())])
      .go(),
  );
  await relayEvents(deps, records);
}

/** Events of a change that is itself no item of ours (or was written already by a step that cannot be undone). */
export const emitEvents = (deps: Deps, events: readonly NewEvent[]) => commitWithEvents(deps, events, () => []);

/** Hands committed events to fan-out; a failure here is the sweeper's to repair, never the client's to see. */
async function relayEvents(deps: Deps, records: readonly WebhookEventItem[]) {
  if (!records.length) return;
  try {
    await deps.eventRelay.relay(records.map((record) => record.id));
  } catch (error) {
    telemetry().logger.warn('Event relay failed; the sweeper will fan the events out.', { events: records.map((r) => r.id), error });
  }
}
