import { webhookEventSchema } from './entities/webhook-event.ts';
import { tableDesign } from './table.ts';

/** ElectroDB names each item's entity in this attribute (store/prepared-reads.ts tells items apart by it). */
export const entityAttribute = '__edb_e__';

const { pk, sk } = webhookEventSchema.indexes.byId;

/**
 * A webhook event's keys (store/entities/webhook-event.ts: `EVT#<id>`, `EVT`), which no
 * other entity's match: all a keys-only stream record tells, and all the stack's event
 * source filter and the fan-out need, since the fan-out reads each event again anyway.
 */
export const webhookEventKeys = { partitionKeyPrefix: pk.template.slice(0, pk.template.indexOf('$')), sortKey: sk.template };

/** A table stream's record, as much of it as is read here. */
interface StreamRecord {
  eventName?: string;
  dynamodb?: { Keys?: Record<string, { S?: string }> };
}

/** The ids of the webhook events a stream batch inserted. */
export const insertedEventIdsOf = (records: readonly StreamRecord[]): string[] =>
  records.flatMap((record) => {
    const keys = record.dynamodb?.Keys;
    const partition = keys?.[tableDesign.partitionKey]?.S;
    const isEvent =
      record.eventName === 'INSERT' &&
      keys?.[tableDesign.sortKey]?.S === webhookEventKeys.sortKey &&
      partition?.startsWith(webhookEventKeys.partitionKeyPrefix);
    return isEvent ? [partition!.slice(webhookEventKeys.partitionKeyPrefix.length)] : [];
  });
