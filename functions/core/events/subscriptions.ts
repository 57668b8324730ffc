import { type EventType, eventTypeNames, eventTypes, isEventType, readScopeOfType, resourceOf, unsentEventTypes } from './event-types.ts';

/** Why a subscription pattern is refused (an unknown type or resource, or one never sent), or undefined when it names something that exists. */
export function subscriptionProblem(pattern: string): string | undefined {
  if (pattern === '*') return undefined;
  if (pattern.endsWith('.*')) {
    const resource = pattern.slice(0, -2);
    return eventTypeNames.some((type) => resourceOf(type) === resource) ? undefined : `"${pattern}" names no resource with events`;
  }
  // Own keys only: `pattern in eventTypes` would take "__proto__" or "toString" for a type.
  if (Object.hasOwn(unsentEventTypes, pattern)) return `"${pattern}" is never sent: ${unsentEventTypes[pattern]}`;
  if (!isEventType(pattern)) return `"${pattern}" is not an event type`;
  if ('direct' in eventTypes[pattern]) return `"${pattern}" is sent only by POST /webhooks/{id}/test`;
  return undefined;
}

/** Whether an endpoint subscribed with `patterns` receives an event of `type`: named exactly, or by `resource.*` or `*`. */
export const subscribes = (patterns: readonly string[], type: EventType): boolean =>
  patterns.includes(type) || patterns.includes('*') || patterns.includes(`${resourceOf(type)}.*`);

/** The read scopes of the resources whose events an endpoint subscribed with `patterns` receives. */
export const readScopesFor = (patterns: readonly string[]): string[] => [
  ...new Set(eventTypeNames.filter((type) => subscribes(patterns, type)).map(readScopeOfType)),
];
