import { createSchema } from 'electrodb';

/**
 * The first outcome of a request sent with an Idempotency-Key, each in a partition of its own
 * so that no partition takes more than its share of writes. Past `expiresAt`, or in progress
 * past `inProgressUntil`, a record is absent to the code, whatever TTL has removed yet.
 *
 * | access pattern        | index | pk                     | sk           |
 * |-----------------------|-------|------------------------|--------------|
 * | record by key digest  | table | IDEMPOTENCY#<key>      | IDEMPOTENCY  |
 */
export const idempotencyRecordSchema = createSchema({
  model: { entity: 'idempotencyRecord', version: '1', service: 'tenant-api' },
  attributes: {
    key: { type: 'string', required: true },
    status: { type: ['INPROGRESS', 'COMPLETED'] as const, required: true },
    /** Epoch seconds; also the TTL. */
    expiresAt: { type: 'number', required: true },
    /** Epoch milliseconds. */
    inProgressUntil: { type: 'number' },
    /** The digest of the request: method, path, query and body. */
    payloadHash: { type: 'string' },
    /** The stored outcome, as JSON. */
    response: { type: 'string' },
    /** Epoch seconds, the same moment as `expiresAt`. */
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byKey: {
      pk: { field: 'pk', composite: ['key'], template: 'IDEMPOTENCY#${key}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'IDEMPOTENCY', casing: 'none' },
    },
  },
});
