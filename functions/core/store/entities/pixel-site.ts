import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * A host claimed for pixel tracking, with a copy of its workspace's pixel settings, so that
 * `/pixel/config` and `/pixel/track` need one GetItem. Created on absence in the transaction of
 * the workspace change that claims it, so that a second claim is a 409.
 *
 * | access pattern     | index | pk                 | sk    |
 * |--------------------|-------|--------------------|-------|
 * | site by host       | table | PIXELSITE#<host>   | SITE  |
 */
export const pixelSiteSchema = createSchema({
  model: { entity: 'pixelSite', version: '1', service: 'tenant-api' },
  attributes: {
    host: { type: 'string', required: true },
    workspaceId: { type: 'string', required: true },
    environment: { type: environments, required: true },
    enabled: { type: 'boolean', required: true },
    pageviews: { type: 'boolean', required: true },
    events: { type: 'boolean', required: true },
    sessions: { type: 'boolean', required: true },
    sampleRate: { type: 'number', required: true },
  },
  indexes: {
    byHost: {
      pk: { field: 'pk', composite: ['host'], template: 'PIXELSITE#${host}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'SITE', casing: 'none' },
    },
  },
});
