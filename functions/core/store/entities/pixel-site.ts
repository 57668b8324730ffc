import { createSchema } from 'electrodb';
import { environments } from '#core/platform/environments';

/**
 * A host claimed for pixel tracking: which workspace and environment its pages report
 * into, and a copy of that workspace's pixel settings, so that `/pixel/config` and
 * `/pixel/track` find everything with one GetItem. Written in the transaction of the
 * workspace change that claims it (create on absence: a second claim is a 409), rewritten
 * whenever the settings change, deleted when the domain is dropped or the workspace deleted.
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
