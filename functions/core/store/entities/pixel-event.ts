import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * One accepted pixel event, kept until its TTL (PIXEL_EVENT_RETENTION_DAYS). No address or user
 * agent is stored: `visitor` is a hash under a key that changes every UTC day
 * (pixel/visitors.ts), so that a visitor cannot be followed from one day to the next.
 *
 * | access pattern                        | index | pk                        | sk                            |
 * |---------------------------------------|-------|---------------------------|-------------------------------|
 * | a visitor's events of a day           | table | PIXELEVT#<wid>#<env>      | <day>#<visitor>#<id> (begins) |
 * | every event of a workspace (deletion) | table | PIXELEVT#<wid>#<env>      | (Query)                       |
 */
export const pixelEventSchema = createSchema({
  model: { entity: 'pixelEvent', version: '1', service: 'tenant-api' },
  attributes: {
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    day: { type: 'string', required: true },
    /** The day's visitor hash; `-` when the site does not count sessions. */
    visitor: { type: 'string', required: true },
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    host: { type: 'string', required: true },
    path: { type: 'string', required: true },
    referrerHost: { type: 'string' },
    properties: { type: 'any' },
    createdAt: { type: 'string', required: true },
    ttl: { type: 'number', required: true },
  },
  indexes: {
    byVisitorDay: {
      pk: { field: 'pk', composite: ['workspaceId', 'environment'], template: 'PIXELEVT#${workspaceId}#${environment}', casing: 'none' },
      sk: { field: 'sk', composite: ['day', 'visitor', 'id'], template: '${day}#${visitor}#${id}', casing: 'none' },
    },
  },
});
