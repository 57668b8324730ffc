import { requireUnboundCredential } from '#core/access/issuance-limits';
import type { Actor, Principal } from '#core/access/principal';
import { scopesBeyond } from '#core/access/scopes';
import type { EventOrigin } from '#core/events/outbox';
import { readScopesFor } from '#core/events/subscriptions';
import { InsufficientPermissions } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { requireRole, roleIn } from '#core/tenancy/membership';

/** Who changes endpoints: the workspace and environment acted in, and the acting user with their credential's scopes. */
export interface EndpointManager extends EventOrigin {
  actor: Actor & Pick<Principal, 'scopes'>;
}

/**
 * Creating, changing or deleting an endpoint, or rotating its secret, decides where the
 * workspace's events go and who can verify them: a workspace owner's or admin's call, as
 * revoking another member's API key is. Members keep reading endpoints and deliveries,
 * test sends and manual retries.
 */
export async function requireEndpointAdmin(deps: Deps, manager: EndpointManager, action: string): Promise<void> {
  requireRole(await roleIn(deps, manager.workspaceId, manager.actor), ['owner', 'admin'], action);
}

/**
 * An OAuth access token is bound to its client's grant, and an endpoint is not: one the
 * token created, pointed elsewhere, subscribed to more or took the secret of would keep
 * receiving (or verifying) the workspace's events after the grant is revoked. As with API
 * keys and workspaces, that is for the user's own credentials: 403 access_denied.
 */
export function requireOwnCredential(actor: EndpointManager['actor'], action: string): void {
  requireUnboundCredential(actor, `${action} (an endpoint and its secret outlive the token)`);
}

/**
 * An endpoint receives only events of resources its credential could read, since an event
 * carries the resource as the API shows it (`*` with webhooks:write alone would read every key
 * and member). Rotating the secret needs the same, as its holder could sign forged events the
 * receiver trusts.
 */
export function requireReadableSubscriptions(actor: EndpointManager['actor'], events: readonly string[]): void {
  const missing = scopesBeyond(actor.scopes, readScopesFor(events));
  if (!missing.length) return;
  const named = missing.map((scope) => `"${scope}"`).join(', ');
  throw new InsufficientPermissions(
    missing.join(' '),
    actor.scopes,
    `An endpoint may only receive events of resources your credential can read; these events need ${named}, which it does not hold.`,
  );
}
