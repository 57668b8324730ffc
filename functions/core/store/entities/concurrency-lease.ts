import { createSchema } from 'electrodb';

/**
 * One of the slots of a credential's concurrent calls (batches, MCP tool calls): held by a
 * running call from a conditional put until it ends, or until `expiresAt` should its
 * holder crash (metering/concurrency-leases.ts). TTL removes slots nobody took again.
 *
 * | access pattern            | index | pk                   | sk          |
 * |---------------------------|-------|----------------------|-------------|
 * | the slots of a credential | table | LEASE#<credentialId> | SLOT#<slot> |
 */
export const concurrencyLeaseSchema = createSchema({
  model: { entity: 'concurrencyLease', version: '1', service: 'tenant-api' },
  attributes: {
    credentialId: { type: 'string', required: true },
    slot: { type: 'number', required: true },
    /** The holder's random token: only it releases the slot. */
    holder: { type: 'string', required: true },
    /** Epoch milliseconds after which the slot is free whoever holds it. */
    expiresAt: { type: 'number', required: true },
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byCredential: {
      pk: { field: 'pk', composite: ['credentialId'], template: 'LEASE#${credentialId}', casing: 'none' },
      sk: { field: 'sk', composite: ['slot'], template: 'SLOT#${slot}', casing: 'none' },
    },
  },
});
