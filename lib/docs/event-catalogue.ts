import * as z from 'zod/mini';
import { type EventType, eventTypeNames, eventTypes } from '#core/events/event-types';
import { eventDataSchemas } from '../../functions/event-payloads.ts';
import { markdownTable } from './markdown-table.ts';

/** The payload's schema by its name in openapi.yaml's components. */
const dataOf = (type: EventType) => `\`${z.globalRegistry.get(eventDataSchemas[type])?.id}\``;

/**
 * The catalogue table of docs/webhooks.md, made from the catalogue and the payload schemas, so that
 * the two cannot drift (test/unit/event-catalogue.test.ts compares them).
 */
export function eventCatalogueTable(): string {
  const rows = eventTypeNames.map((type) => [`\`${type}\``, eventTypes[type].description, dataOf(type)]);
  return markdownTable(['type', 'when', '`data`'], rows);
}
