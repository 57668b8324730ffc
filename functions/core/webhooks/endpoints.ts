import type * as z from 'zod/mini';
import { contentScope, grants } from '#core/access/scopes';
import { countOneFewerOf, countOneMoreWithin, withinLimit } from '#core/entitlements/limited-counts';
import { forgetUsage } from '#core/entitlements/usage';
import type { EventType } from '#core/events/event-types';
import { commitWithEvents, type NewEvent } from '#core/events/outbox';
import type { ListSource } from '#core/lists/list-source';
import { workspaceScope } from '#core/namespaces/workspace-scope';
import { idsCreatedWithin, newId } from '#core/platform/ids';
import { webhookConfig } from '#core/platform/webhook-settings';
import type { Deps } from '#core/ports/deps';
import { goneAsNotFound } from '#core/store/conditions';
import type { WebhookEndpointItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { collections, counted, countOneFewer, countOneMore, forgetCount } from '#core/store/list-counts';
import { madeInOpenWorkspace, openWorkspace } from '#core/tenancy/workspace-open';
import { type EndpointManager, requireEndpointAdmin, requireOwnCredential, requireReadableSubscriptions } from './endpoint-access.ts';
import type { createdWebhookEndpoint } from './endpoint-schemas.ts';
import { type EndpointOwner, endpointKey, loadWebhookEndpoint, webhookEndpointView } from './endpoint-view.ts';
import { generateWebhookSecret } from './secrets.ts';
import { checkWebhookUrl } from './url-policy.ts';

/** The event that reports a change of an endpoint: `data` is the endpoint as the API shows it. */
export const endpointEvent = (type: EventType, item: WebhookEndpointItem): NewEvent => ({
  type,
  origin: { workspaceId: item.workspaceId, environment: item.environment },
  data: webhookEndpointView(item),
});

/** The policy on target URLs in force (WEBHOOK_ALLOW_INSECURE lifts it for local use). */
const checkUrl = async (url: string) => (await checkWebhookUrl(url, { allowInsecure: webhookConfig().WEBHOOK_ALLOW_INSECURE })).href;

/** Each pattern once, in the order given. */
const distinct = (events: readonly string[]) => [...new Set(events)];

const collectionOf = (owner: EndpointOwner) => collections.webhooksOfWorkspace(owner.workspaceId, owner.environment);

/** The usage counter the `webhooks` limit reads: the workspace's, in the endpoint's environment. */
const counterOwner = (owner: EndpointOwner) =>
  ({ ownerType: 'Workspace', ownerId: owner.workspaceId, environment: owner.environment }) as const;

export interface NewWebhookEndpoint {
  url: string;
  /** Exact types, `resource.*` and `*`, already checked against the catalogue (endpoint-schemas.ts). */
  events: readonly string[];
  /** A client's own secret (secrets.ts isWebhookSecret); generated when absent. */
  secret?: string;
}

/**
 * Creates an endpoint with `webhook.created`, counted against the `webhooks` limit in the same
 * transaction so that racing creates never pass it. Its events must be readable by the
 * credential, which may not be an OAuth token; the answer is the one time the secret is shown
 * but for rotations.
 */
export async function createWebhookEndpoint(
  deps: Deps,
  owner: EndpointManager,
  input: NewWebhookEndpoint,
): Promise<z.output<typeof createdWebhookEndpoint>> {
  requireOwnCredential(owner.actor, 'create webhook endpoints');
  await requireEndpointAdmin(deps, owner, 'create webhook endpoints');
  requireReadableSubscriptions(owner.actor, input.events);
  const url = await checkUrl(input.url);
  const workspace = await openWorkspace(deps, owner.workspaceId);
  const now = deps.clock.now();
  const id = newId('webhook', now);
  const secret = input.secret ?? generateWebhookSecret();
  const item: WebhookEndpointItem = {
    id,
    workspaceId: owner.workspaceId,
    environment: owner.environment,
    url,
    events: distinct(input.events),
    sealedSecret: deps.webhookSecrets.seal(secret, id, 'secret'),
    isActive: true,
    readsContent: grants(owner.actor.scopes, contentScope),
    successCount: 0,
    failureCount: 0,
    consecutiveFailures: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const scope = await workspaceScope(deps, workspace, owner.environment);
  await madeInOpenWorkspace(
    deps,
    owner.workspaceId,
    () =>
      withinLimit(deps, scope, 'webhooks', (limit) =>
        commitWithEvents(deps, [endpointEvent('webhook.created', item)], ({ webhookEndpoint, counter, usageCounter }) => [
          webhookEndpoint.create(item).commit(),
          countOneMore(counter, collectionOf(owner)),
          countOneMoreWithin(usageCounter, scope, 'webhooks', limit, now),
        ]),
      ),
    // Made as its workspace is being deleted: gone with it, with the counts its create moved.
    async () => {
      await deps.db.entities.webhookEndpoint.delete(endpointKey(item)).go();
      await forgetCount(deps.db, collectionOf(owner));
      await forgetUsage(deps, owner.workspaceId);
    },
  );
  return { ...webhookEndpointView(item), secret };
}

/** An endpoint of the owner's workspace and environment; 404 for any other, as if it did not exist. */
export const getWebhookEndpoint = async (deps: Deps, owner: EndpointOwner, id: string) =>
  webhookEndpointView(await loadWebhookEndpoint(deps, owner, id));

/** The owner's endpoints in creation order: one Query of their partition's environment. */
export function webhookEndpointsOf(
  deps: Deps,
  owner: EndpointOwner,
): ListSource<WebhookEndpointItem, ReturnType<typeof webhookEndpointView>> {
  const { webhookEndpoint } = deps.db.entities;
  return {
    ...counted(deps.db, collectionOf(owner)),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('webhook', after, before),
    read: keyOrderReader(webhookEndpoint, 'byWorkspace', (range) => {
      const endpoints = webhookEndpoint.query.byWorkspace({ workspaceId: owner.workspaceId, environment: owner.environment });
      return range ? endpoints.between({ id: range.from }, { id: range.to }) : endpoints;
    }),
    view: async (rows) => rows.map(webhookEndpointView),
  };
}

export interface WebhookEndpointChanges {
  url?: string;
  events?: readonly string[];
  isActive?: boolean;
}

/**
 * Changes an endpoint's URL, subscriptions or `is_active`. A new URL or events decide who
 * receives what, so no OAuth token may make them, and the events must be readable by the
 * credential (else a narrower one could redirect a wider one's `*` endpoint to itself).
 */
export async function updateWebhookEndpoint(deps: Deps, owner: EndpointManager, id: string, changes: WebhookEndpointChanges) {
  const redirects = changes.url !== undefined || changes.events !== undefined;
  if (redirects) requireOwnCredential(owner.actor, "change webhook endpoints' url or events");
  await requireEndpointAdmin(deps, owner, 'change webhook endpoints');
  const current = await loadWebhookEndpoint(deps, owner, id);
  if (redirects) requireReadableSubscriptions(owner.actor, changes.events ?? current.events);
  const reactivated = changes.isActive === true && !current.isActive;
  const set = {
    updatedAt: deps.clock.now().toISOString(),
    // Whoever points it elsewhere or changes what it hears decides whether it reads posts' content.
    ...(redirects && { readsContent: grants(owner.actor.scopes, contentScope) }),
    ...(changes.url !== undefined && { url: await checkUrl(changes.url) }),
    ...(changes.events !== undefined && { events: distinct(changes.events) }),
    ...(changes.isActive !== undefined && { isActive: changes.isActive }),
    // Afresh, so that the first failure after reactivating does not disable it again.
    ...(reactivated && { consecutiveFailures: 0 }),
  };
  const updated: WebhookEndpointItem = { ...current, ...set, ...(reactivated && { disabledAt: undefined }) };
  await goneAsNotFound('webhook', id, () =>
    commitWithEvents(deps, [endpointEvent('webhook.updated', updated)], ({ webhookEndpoint }) => {
      const patch = webhookEndpoint.patch(endpointKey(current)).set(set);
      return [(reactivated ? patch.remove(['disabledAt']) : patch).where((attr, op) => op.exists(attr.sealedSecret)).commit()];
    }),
  );
  return webhookEndpointView(updated);
}

/**
 * Deletes an endpoint (owners and admins only, as every change of one), with its counts
 * and its `webhook.deleted` event (`data`: the endpoint as it was). Its deliveries stay readable by no route and expire with their TTL;
 * a delivery attempt already under way finds the endpoint gone and ends.
 */
export async function deleteWebhookEndpoint(deps: Deps, owner: EndpointManager, id: string): Promise<void> {
  await requireEndpointAdmin(deps, owner, 'delete webhook endpoints');
  const endpoint = await loadWebhookEndpoint(deps, owner, id);
  await goneAsNotFound('webhook', id, () =>
    commitWithEvents(deps, [endpointEvent('webhook.deleted', endpoint)], ({ webhookEndpoint, counter, usageCounter }) => [
      webhookEndpoint
        .delete(endpointKey(endpoint))
        .where((attr, op) => op.exists(attr.sealedSecret))
        .commit(),
      countOneFewer(counter, collectionOf(owner)),
      countOneFewerOf(usageCounter, counterOwner(owner), 'webhooks', deps.clock.now()),
    ]),
  );
}
