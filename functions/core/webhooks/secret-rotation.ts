import type * as z from 'zod/mini';
import { commitWithEvents } from '#core/events/outbox';
import { StateConflict } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { UnreadableSecret } from '#core/ports/webhook-secrets';
import { isConditionFailure } from '#core/store/conditions';
import type { WebhookEndpointItem } from '#core/store/items';
import { type EndpointManager, requireEndpointAdmin, requireOwnCredential, requireReadableSubscriptions } from './endpoint-access.ts';
import type { rotatedWebhookSecret } from './endpoint-schemas.ts';
import { endpointKey, loadWebhookEndpoint, webhookEndpointView } from './endpoint-view.ts';
import { endpointEvent } from './endpoints.ts';
import { generateWebhookSecret } from './secrets.ts';

/**
 * Gives an endpoint a new secret, shown in this answer only; for `gracePeriodHours` the old one
 * keeps signing beside it, so that receivers switch without dropping a delivery. Only the
 * secret being replaced gets a grace period, and only if it still opens (secret-box.ts), so
 * that rotating is also the way out for an endpoint whose stored secret cannot be read.
 */
export async function rotateWebhookSecret(
  deps: Deps,
  owner: EndpointManager,
  id: string,
  gracePeriodHours: number,
): Promise<z.output<typeof rotatedWebhookSecret>> {
  requireOwnCredential(owner.actor, "rotate webhook endpoints' secrets");
  await requireEndpointAdmin(deps, owner, "rotate webhook endpoints' secrets");
  const endpoint = await loadWebhookEndpoint(deps, owner, id);
  // The secret verifies every event the endpoint receives: it is no more the credential's to take than the events are to read.
  requireReadableSubscriptions(owner.actor, endpoint.events);
  const now = deps.clock.now();
  const secret = generateWebhookSecret();
  const sealedSecret = deps.webhookSecrets.seal(secret, endpoint.id, 'secret');
  const updatedAt = now.toISOString();
  // The replaced secret moves to the other field, sealed again for it; one that cannot be opened signs nothing, so it gets no grace period.
  const previous = gracePeriodHours > 0 ? openedSecret(deps, endpoint) : undefined;
  const grace = previous
    ? {
        sealedPreviousSecret: deps.webhookSecrets.seal(previous, endpoint.id, 'previousSecret'),
        previousSecretExpiresAt: new Date(now.getTime() + gracePeriodHours * 3_600_000).toISOString(),
      }
    : undefined;
  const rotated: WebhookEndpointItem = {
    ...endpoint,
    sealedSecret,
    updatedAt,
    sealedPreviousSecret: undefined,
    previousSecretExpiresAt: undefined,
    ...grace,
  };
  try {
    await commitWithEvents(deps, [endpointEvent('webhook.secret_rotated', rotated)], ({ webhookEndpoint }) => {
      const patch = webhookEndpoint.patch(endpointKey(endpoint));
      const changed = grace
        ? patch.set({ sealedSecret, updatedAt, ...grace })
        : patch.set({ sealedSecret, updatedAt }).remove(['sealedPreviousSecret', 'previousSecretExpiresAt']);
      // On the secret read: of two racing rotations one wins, and no secret is shown that never signs.
      return [changed.where((attr, op) => op.eq(attr.sealedSecret, endpoint.sealedSecret)).commit()];
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await loadWebhookEndpoint(deps, owner, id); // deleted meanwhile: 404, as on GET
    throw new StateConflict(
      'The secret was rotated meanwhile by another request; rotate again if you need a secret of your own.',
      'rotated',
      'rotate-secret',
    );
  }
  return { ...webhookEndpointView(rotated), secret, previous_secret_expires_at: grace?.previousSecretExpiresAt ?? null };
}

/** The endpoint's current secret, or undefined when it cannot be opened (its key is no longer configured, or the record was altered). */
function openedSecret(deps: Deps, endpoint: WebhookEndpointItem): string | undefined {
  try {
    return deps.webhookSecrets.open(endpoint.sealedSecret, endpoint.id, 'secret');
  } catch (error) {
    if (error instanceof UnreadableSecret) return undefined;
    throw error;
  }
}
