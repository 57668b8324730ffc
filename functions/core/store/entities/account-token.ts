import { createSchema } from 'electrodb';
import { prunableAttributes, prunableIndex } from './prunable.ts';

const accountTokenPurposes = ['verify-email', 'reset-password', 'change-email'] as const;
export type AccountTokenPurpose = (typeof accountTokenPurposes)[number];

/**
 * A one-time token mailed to an address, kept only as its SHA-256 digest. A used verification
 * or email change token is marked `usedAt` rather than deleted, so that its link pressed again
 * can answer that its work is done.
 *
 * | access pattern     | index | pk                        | sk             |
 * |--------------------|-------|---------------------------|----------------|
 * | token by digest    | table | ACCOUNT_TOKEN#<digest>    | ACCOUNT_TOKEN  |
 * | lapsed (pruning)   | gsi2  | PRUNE#accountToken        | <prunableAt>   |
 */
export const accountTokenSchema = createSchema({
  model: { entity: 'accountToken', version: '1', service: 'tenant-api' },
  attributes: {
    digest: { type: 'string', required: true },
    purpose: { type: accountTokenPurposes, required: true },
    userId: { type: 'number', required: true },
    /** The address the token was mailed to: the account's email, or the new one it confirms; until the token is used. */
    email: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    /** When the token did its work. */
    usedAt: { type: 'string' },
    /** SHA-256 of `email` once the token is used: an address the account leaves stays nowhere in plain. */
    emailDigest: { type: 'string' },
    ttl: { type: 'number', required: true },
    ...prunableAttributes('accountToken', { required: true }),
  },
  indexes: {
    byDigest: {
      pk: { field: 'pk', composite: ['digest'], template: 'ACCOUNT_TOKEN#${digest}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'ACCOUNT_TOKEN', casing: 'none' },
    },
    byPrunableAt: prunableIndex,
  },
});
