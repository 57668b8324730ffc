import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';
import { dueAttributes, dueIndex } from './due.ts';

/**
 * An event, written in the transaction of the change it reports (the outbox). `body` is the
 * envelope as every delivery sends it, so that each attempt signs and sends the same bytes.
 *
 * | access pattern                 | index | pk                 | sk        |
 * |--------------------------------|-------|--------------------|-----------|
 * | event by id                    | table | EVT#<id>           | EVT       |
 * | events not yet fanned out      | gsi2  | DUE#webhookEvent   | <dueAt>   |
 */
export const webhookEventSchema = createSchema({
  model: { entity: 'webhookEvent', version: '1', service: 'tenant-api' },
  attributes: {
    id: { type: 'string', required: true },
    type: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    /** The envelope `{ id, type, created_at, workspace_id, data }` as JSON. */
    body: { type: 'string', required: true },
    /** The envelope without posts' `content`, for endpoints whose creator could not read it (post events only). */
    bodyWithoutContent: { type: 'string' },
    createdAt: { type: 'string', required: true, readOnly: true },
    /** Set once every delivery of the event exists. */
    fannedOutAt: { type: 'string' },
    /** Epoch seconds: the event is kept as long as its deliveries may be retried. */
    ttl: { type: 'number', required: true },
    ...dueAttributes('webhookEvent'),
  },
  indexes: {
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'EVT#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'EVT', casing: 'none' },
    },
    byDueAt: dueIndex,
  },
});
