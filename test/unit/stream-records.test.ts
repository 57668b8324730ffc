import { Entity } from 'electrodb';
import { webhookEventSchema } from '#core/store/entities/webhook-event';
import { insertedEventIdsOf } from '#core/store/stream-records';

/** The keys ElectroDB writes for an event: what a keys-only stream record carries. */
const keysOf = (id: string) => {
  const { Item } = new Entity(webhookEventSchema, { table: 'tenant-api' })
    .put({ id, type: 'post.created', workspaceId: 'wks_1', environment: 'live', body: '{}', createdAt: '2026-01-01T00:00:00.000Z', ttl: 1 })
    .params() as { Item: Record<string, string> };
  return { pk: { S: Item.pk }, sk: { S: Item.sk } };
};

describe('the webhook events of a keys-only stream batch', () => {
  it('are the ids of the inserted events, told by their keys alone', () => {
    const records = [
      { eventName: 'INSERT', dynamodb: { Keys: keysOf('evt_1') } },
      { eventName: 'MODIFY', dynamodb: { Keys: keysOf('evt_2') } },
      { eventName: 'REMOVE', dynamodb: { Keys: keysOf('evt_3') } },
      { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'EVT#evt_4' }, sk: { S: 'DELIVERY' } } } },
      { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'WKS#evt_5' }, sk: { S: 'EVT' } } } },
      { eventName: 'INSERT', dynamodb: { Keys: keysOf('evt_6') } },
      { eventName: 'INSERT', dynamodb: {} },
    ];
    expect(insertedEventIdsOf(records)).toEqual(['evt_1', 'evt_6']);
  });
});
