import { createSchema } from 'electrodb';
import { prunableAttributes, prunableIndex } from './prunable.ts';

/**
 * A fixed-window counter, advanced with an atomic ADD (failed logins per email and per
 * client address). TTL removes old windows; code only ever reads the current one.
 *
 * | access pattern         | index | pk                    | sk               |
 * |------------------------|-------|-----------------------|------------------|
 * | window of a subject    | table | THROTTLE#<subject>    | WINDOW#<start>   |
 * | old windows (pruning)  | gsi2  | PRUNE#throttleWindow  | <prunableAt>     |
 */
export const throttleWindowSchema = createSchema({
  model: { entity: 'throttleWindow', version: '1', service: 'tenant-api' },
  attributes: {
    subject: { type: 'string', required: true },
    windowStart: { type: 'number', required: true },
    count: { type: 'number', required: true, default: 0 },
    ttl: { type: 'number', required: true },
    ...prunableAttributes('throttleWindow'),
  },
  indexes: {
    bySubject: {
      pk: { field: 'pk', composite: ['subject'], template: 'THROTTLE#${subject}', casing: 'none' },
      sk: { field: 'sk', composite: ['windowStart'], template: 'WINDOW#${windowStart}', casing: 'none' },
    },
    byPrunableAt: prunableIndex,
  },
});
