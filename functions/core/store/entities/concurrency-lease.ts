import { createSchema } from 'electrodb';

/**
 * One slot of a credential's concurrent calls (metering/concurrency-leases.ts), held until the
 * call ends or until `expiresAt`, so that a holder that crashed frees it.
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
