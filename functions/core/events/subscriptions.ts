import { eventTypeNames, eventTypes, isEventType, readScopeOfType, resourceOf, type EventType } from './event-types.ts';

/**
 * Why a `resource.*` pattern is refused: it names no resource, or one whose types are all
 * opt-in, which only their exact names subscribe to, so that it would match nothing.
 */
function wildcardProblem(pattern: string): string | undefined {
  const types = eventTypeNames.filter((type) => resourceOf(type) === pattern.slice(0, -2));
  if (!types.length) return `"${pattern}" names no resource with events`;
  if (types.every((type) => 'optIn' in eventTypes[type])) {
    return `"${pattern}" cannot subscribe to opt-in types, which are sent only where named exactly: name ${types.join(', ')}`;
  }
  return undefined;
}

/** Why a subscription pattern is refused (an unknown type or resource, or one no event could match), or undefined when it names something that exists. */
export function subscriptionProblem(pattern: string): string | undefined {
  if (pattern === '*') return undefined;
  if (pattern.endsWith('.*')) return wildcardProblem(pattern);
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

/** The read scopes of the resources whose events an endpoint subscribed with `patterns` receives (opt-in types only where named). */
export const readScopesFor = (patterns: readonly string[]): string[] => [
  ...new Set(eventTypeNames.filter((type) => subscribes(patterns, type)).map(readScopeOfType)),
];
