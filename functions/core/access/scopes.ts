/**
 * Scope grammar of docs/decisions.md: `resource:action`, with `resource:*`, `*:action` and `*`
 * as wildcards, and a few aliases that stand for a set of plain scopes.
 */
export const knownScopes = [
  'posts:read',
  'posts:write',
  'posts:delete',
  'posts:read-content',
  'categories:read',
  'categories:write',
  'categories:delete',
  'analytics:read',
  'workspaces:read',
  'workspaces:write',
  'workspaces:delete',
  'api-keys:read',
  'api-keys:write',
  'api-keys:delete',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  'entitlements:read',
  'entitlements:write',
  'seo:read',
  'seo:write',
  'mcp:read',
  'mcp:write',
  'users:read',
  'users:write',
  'namespaces:read',
  'usage:read',
  'resources:write',
] as const;
export type KnownScope = (typeof knownScopes)[number];

export const scopeAliases: Record<string, readonly string[]> = {
  'admin:*': ['*'],
  'read:all': ['*:read'],
  'write:resources': ['*:write'],
  'webhooks:manage': ['webhooks:read', 'webhooks:write', 'webhooks:delete'],
  'keys:manage': ['api-keys:read', 'api-keys:write', 'api-keys:delete'],
};

/**
 * The resources (part 0) or actions (part 1) of the known scopes. Computed when asked, not
 * at load, so that bundles which use no scope rule (the authorizer) leave the table out.
 */
const partsOf = (part: 0 | 1) => new Set(knownScopes.map((s) => s.split(':')[part]));

/** True when `scope` is a scope, alias or wildcard this service knows. */
export function isKnownScope(scope: string): boolean {
  if (scope === '*' || Object.hasOwn(scopeAliases, scope) || (knownScopes as readonly string[]).includes(scope)) return true;
  const [resource, action, ...rest] = scope.split(':');
  if (rest.length > 0 || !resource || !action) return false;
  return (resource === '*' && partsOf(1).has(action)) || (action === '*' && partsOf(0).has(resource));
}

/** Aliases replaced by the scopes they stand for. Own keys only: "constructor" is no alias. */
const expandScopes = (scopes: readonly string[]): string[] =>
  scopes.flatMap((s) => (Object.hasOwn(scopeAliases, s) ? scopeAliases[s]! : [s]));

function covers(granted: string, required: string): boolean {
  if (granted === '*' || granted === required) return true;
  const [gResource, gAction] = granted.split(':');
  const [rResource, rAction] = required.split(':');
  return (gResource === '*' || gResource === rResource) && (gAction === '*' || gAction === rAction);
}

/** The scope that shows a post's `content`: in answers, and in the post events an endpoint receives. */
export const contentScope = 'posts:read-content' satisfies KnownScope;

/** True when the scopes a credential holds grant the scope a route requires. */
export function grants(held: readonly string[], required: string): boolean {
  return expandScopes(held).some((granted) => covers(granted, required));
}

/** The requested scopes (aliases expanded) that the held ones do not grant. */
export const scopesBeyond = (held: readonly string[], requested: readonly string[]): string[] =>
  expandScopes(requested).filter((scope) => !grants(held, scope));
