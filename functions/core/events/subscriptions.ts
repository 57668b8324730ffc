import { eventTypeNames, eventTypes, isEventType, resourceOf, type EventType } from './event-types.ts';

const resources = new Set(eventTypeNames.map(resourceOf));

/** Why a subscription pattern is refused (an unknown type or resource), or undefined when it names something that exists. */
export function subscriptionProblem(pattern: string): string | undefined {
  if (pattern === '*') return undefined;
  if (pattern.endsWith('.*')) {
    return resources.has(pattern.slice(0, -2)) ? undefined : `"${pattern}" names no resource with events`;
  }
  // Own keys only: `pattern in eventTypes` would take "__proto__" or "toString" for a type.
  if (!isEventType(pattern)) return `"${pattern}" is not an event type`;
  if ('direct' in eventTypes[pattern]) return `"${pattern}" is sent only by POST /webhooks/{id}/test`;
  return undefined;
}

/**
 * Whether an endpoint subscribed with `patterns` receives an event of `type`: named
 * exactly, or by `resource.*` or `*`, except the opt-in (high-volume) types, which only an
 * exact name subscribes to.
 */
export function subscribes(patterns: readonly string[], type: EventType): boolean {
  if (patterns.includes(type)) return true;
  if ('optIn' in eventTypes[type]) return false;
  return patterns.includes('*') || patterns.includes(`${resourceOf(type)}.*`);
}
