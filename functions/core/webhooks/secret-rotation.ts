import type { Deps } from '../deps.ts';
import { StateConflict } from '../errors.ts';
import { commitWithEvents } from '../events/outbox.ts';
import { isConditionFailure } from '../store/conditions.ts';
import { endpointKey, loadWebhookEndpoint, webhookEndpointView, type WebhookEndpointItem } from './endpoint-view.ts';
import { requireEndpointAdmin, requireOwnCredential, requireReadableSubscriptions, type EndpointManager } from './endpoint-access.ts';
import { endpointEvent } from './endpoints.ts';
import { generateWebhookSecret } from './secrets.ts';

/**
 * Gives an endpoint a new secret, shown in this answer only, with its
 * `webhook.secret_rotated` event. For `gracePeriodHours` the old secret keeps signing
 * beside the new one (every delivery carries both signatures), so receivers can switch
 * without dropping a delivery; 0 ends it at once. A secret still in its grace period from
 * an earlier rotation stops now: only the secret being replaced gets one. Owners and
 * admins only, with the read scopes of the endpoint's events and not by OAuth token
 * (endpoint-access.ts).
 */
export async function rotateWebhookSecret(deps: Deps, owner: EndpointManager, id: string, gracePeriodHours: number) {
  requireOwnCredential(owner.actor, "rotate webhook endpoints' secrets");
  await requireEndpointAdmin(deps, owner, "rotate webhook endpoints' secrets");
  const endpoint = await loadWebhookEndpoint(deps, owner, id);
  // The secret verifies every event the endpoint receives: it is no more the credential's to take than the events are to read.
  requireReadableSubscriptions(owner.actor, endpoint.events);
  const now = deps.clock.now();
  const secret = generateWebhookSecret();
  const updatedAt = now.toISOString();
  const graceEndsAt = gracePeriodHours > 0 ? new Date(now.getTime() + gracePeriodHours * 3_600_000).toISOString() : undefined;
  const rotated: WebhookEndpointItem = { ...endpoint, secret, updatedAt, previousSecret: undefined, previousSecretExpiresAt: undefined };
  if (graceEndsAt) Object.assign(rotated, { previousSecret: endpoint.secret, previousSecretExpiresAt: graceEndsAt });
  try {
    await commitWithEvents(deps, [endpointEvent('webhook.secret_rotated', rotated)], ({ webhookEndpoint }) => {
      const patch = webhookEndpoint.patch(endpointKey(endpoint));
      const changed = graceEndsAt
        ? patch.set({ secret, updatedAt, previousSecret: endpoint.secret, previousSecretExpiresAt: graceEndsAt })
        : patch.set({ secret, updatedAt }).remove(['previousSecret', 'previousSecretExpiresAt']);
      // On the secret read: of two racing rotations one wins, and no secret is shown that never signs.
      return [changed.where((attr, op) => op.eq(attr.secret, endpoint.secret)).commit()];
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await loadWebhookEndpoint(deps, owner, id); // deleted meanwhile: 404, as on GET
    throw new StateConflict('The secret was rotated meanwhile by another request; rotate again if you need a secret of your own.', 'rotated', 'rotate-secret');
  }
  return { ...webhookEndpointView(rotated), secret, previous_secret_expires_at: graceEndsAt ?? null };
}
