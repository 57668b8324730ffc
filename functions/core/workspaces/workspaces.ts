import type { Actor } from '#core/access/principal';
import { forgetContentOf } from '#core/content/content-purge';
import type { EntitlementScope } from '#core/entitlements/entitlement-scope';
import { countOneFewerOf, countOneMoreWithin, limitNow, requireBelow, usedOf } from '#core/entitlements/limited-counts';
import { forgetUsage } from '#core/entitlements/usage';
import { type Acting, eventIn } from '#core/events/origins';
import { commitWithEvents } from '#core/events/outbox';
import type { ListSource } from '#core/lists/list-source';
import { removeInvitation } from '#core/members/invitations';
import { forgetPendingInvitationsInto } from '#core/members/pending-invitations';
import { forgetWorkspaceNamespace, workspaceNamespace } from '#core/namespaces/defaults';
import { userScope, workspaceOwnerCount } from '#core/namespaces/user-scope';
import { forgetPixelDataOf } from '#core/pixel/pixel-removal';
import { type PixelSettingsPatch, patchedPixelSettings } from '#core/pixel/pixel-settings';
import { claimWrites, releaseSitesOf } from '#core/pixel/site-claims';
import { isoNow } from '#core/platform/clock';
import { DuplicateResource, NotFound, StateConflict, ValidationFailed, WorkspaceSuspended } from '#core/platform/errors';
import { idsCreatedWithin, newId } from '#core/platform/ids';
import { firstFree, slugify } from '#core/platform/slugs';
import { telemetry } from '#core/platform/telemetry';
import { defaultTier, type Tier, tierAbove } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import type { GatewayKey } from '#core/ports/gateway-keys';
import { forgetSeoDataOf } from '#core/seo/seo-removal';
import { goneAsNotFound, ignoreConditionFailure, isConditionFailure } from '#core/store/conditions';
import type { MembershipItem, WorkspaceItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { collections, counted, countOneMore, forgetCount } from '#core/store/list-counts';
import { itemByKey } from '#core/store/prepared-reads';
import { leave, requireRole, roleIn } from '#core/tenancy/membership';
import { workspaceSummaryView, workspaceView } from '#core/tenancy/workspace-view';
import { deleteUserToken } from '#core/users/user-tokens';
import { loadUser } from '#core/users/users';
import { retireWebhookEndpointsOf } from '#core/webhooks/endpoint-removal';
import { changeWorkspace } from './workspace-changes.ts';
import { removeGatewayKey, withGatewayKey } from './workspace-gateway-keys.ts';

const defaultSettings = { timezone: 'UTC', locale: 'en' };

/** Settings as a create or update sends them: any field, `pixel` field by field. */
export type SettingsPatch = Partial<typeof defaultSettings> & { pixel?: PixelSettingsPatch };

export interface NewWorkspace {
  name: string;
  slug?: string;
  tier?: Tier;
  settings?: SettingsPatch;
}

/** The stored settings after a patch, and the pixel domain claims that go with them in its transaction. */
async function patchedSettings(deps: Deps, workspaceId: string, current: WorkspaceItem['settings'] | undefined, patch: SettingsPatch = {}) {
  const { pixel, ...plain } = patch;
  const settings: WorkspaceItem['settings'] = { ...defaultSettings, ...current, ...plain };
  if (!pixel) return { settings };
  settings.pixel = patchedPixelSettings(current?.pixel, pixel);
  return { settings, claims: await claimWrites(deps, workspaceId, current?.pixel, settings.pixel) };
}

/** The first of `base`, `base-2`, `base-3` ... that the owner has not used. */
async function freeSlug(deps: Deps, ownerId: number, base: string): Promise<string> {
  const { data } = await deps.db.entities.workspaceSlug.query.byOwner({ ownerId }).begins({ slug: base }).go({ pages: 'all' });
  return firstFree(base, new Set(data.map((claim) => claim.slug)));
}

/**
 * A workspace's tier never exceeds its creator's own tier (their subscription), unless the
 * creator is a platform admin; platform admins change tiers later (workspace-tier.ts).
 */
function requireTierWithin(owner: { tier: Tier; platformAdmin: boolean }, tier: Tier | undefined): void {
  if (tier && tierAbove(tier, owner.tier) && !owner.platformAdmin) {
    throw new ValidationFailed({
      tier: [`must not be above your own tier, ${owner.tier}; a platform admin can change a workspace's tier`],
    });
  }
}

/**
 * The events of a workspace's creation or deletion: its own, and, when a request acting in
 * another workspace made it (`actingIn`), one there too, for that workspace's endpoints:
 * a new workspace has none yet, and a deleted one is about to lose its own.
 */
function workspaceEvents(
  type: 'workspace.created' | 'workspace.deleted',
  view: object,
  id: string,
  acting: Acting | undefined,
  actingIn?: string,
) {
  return [id, ...(actingIn && actingIn !== id ? [actingIn] : [])].map((workspaceId) => eventIn(workspaceId, acting, type, view));
}

export interface WorkspaceCreation {
  /** Its id when it was chosen already (an account's personal workspace, which the user's record names first). */
  id?: string;
  /** The credential whose environment the events carry. */
  acting?: Acting;
  /** The workspace the creating request acted in, whose endpoints hear of it too. */
  actingIn?: string;
}

/**
 * Creates a workspace owned by `ownerId`, counted among the workspaces the owner may own
 * (the `workspaces` entitlement of their tier, in the create's own transaction, so that
 * racing creates cannot pass it), with `workspace.created` (workspaceEvents).
 */
export async function createWorkspace(deps: Deps, ownerId: number, input: NewWorkspace, creation: WorkspaceCreation = {}) {
  const owner = await loadUser(deps, ownerId);
  requireTierWithin(owner, input.tier);
  const scope = await userScope(deps, owner);
  const createdAt = deps.clock.now();
  const limit = limitNow(scope, 'workspaces', createdAt);
  // Checked before the gateway key is made, so that a refused create makes none; the transaction holds it under races.
  requireBelow('workspaces', limit, await usedOf(deps, scope, 'workspaces', createdAt));
  const workspaceId = creation.id ?? newId('workspace', createdAt);
  const tier = input.tier ?? defaultTier;
  return withGatewayKey(deps, workspaceId, tier, (gatewayKey) =>
    storeWorkspace(deps, ownerId, input, { id: workspaceId, tier, createdAt, gatewayKey }, { ...creation, scope, limit }),
  );
}

/**
 * The workspace's records, in one transaction with its owner's membership, slug claim,
 * the owner's `workspaces` count and the events.
 */
async function storeWorkspace(
  deps: Deps,
  ownerId: number,
  input: NewWorkspace,
  { id, tier, createdAt, gatewayKey }: { id: string; tier: Tier; createdAt: Date; gatewayKey?: GatewayKey },
  { acting, actingIn, scope, limit }: WorkspaceCreation & { scope: EntitlementScope; limit: number | null },
) {
  const now = createdAt.toISOString();
  const { settings, claims } = await patchedSettings(deps, id, undefined, input.settings);
  const item = {
    id,
    name: input.name,
    tier,
    ownerId,
    settings,
    // Without a key of its own it shares its tier's, and waits for one (operations/gateway-key-reconciliation.ts).
    ...(gatewayKey ? { gatewayKey } : { sharingSince: now }),
    createdAt: now,
    updatedAt: now,
  };
  // A concurrent create may take the chosen auto slug first; the claim is conditional, so retry.
  for (let attempt = 0; ; attempt++) {
    const slug = input.slug ?? (await freeSlug(deps, ownerId, slugify(input.name, 'workspace')));
    const view = workspaceView({ ...item, slug });
    try {
      const events = workspaceEvents('workspace.created', view, id, acting, actingIn);
      await commitWithEvents(deps, events, (entities) => [
        ...(claims?.(entities) ?? []),
        ...workspaceRecords(entities, { ...item, slug }, { scope, limit }),
      ]);
      return view;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      requireBelow('workspaces', limit, await usedOf(deps, scope, 'workspaces', createdAt));
      if (claims) await claimWrites(deps, id, undefined, item.settings.pixel!);
      if (input.slug) {
        const { data } = await deps.db.entities.workspaceSlug.get({ ownerId, slug }).go();
        throw new DuplicateResource('workspace', 'slug', data?.workspaceId);
      }
      if (attempt >= 3) throw error;
    }
  }
}

type RecordEntities = Parameters<Parameters<typeof commitWithEvents>[2]>[0];

/** A new workspace's own records: itself, its namespace, its owner's membership, its slug claim and the counts they move. */
function workspaceRecords(
  { workspace, membership, workspaceSlug, counter, namespace, usageCounter }: RecordEntities,
  item: WorkspaceItem,
  { scope, limit }: { scope: EntitlementScope; limit: number | null },
) {
  const { id, ownerId, slug, name, createdAt: now } = item;
  const createdAt = new Date(now);
  return [
    workspace.create(item).commit(),
    workspaceNamespace(namespace, { id, name, slug, createdAt: now }),
    membership.create({ workspaceId: id, userId: ownerId, role: 'owner', createdAt: now }).commit(),
    workspaceSlug.create({ ownerId, slug, workspaceId: id }).commit(),
    countOneMore(counter, collections.workspacesOfUser(ownerId)),
    countOneMore(counter, collections.membersOfWorkspace(id)),
    countOneMoreWithin(usageCounter, scope, 'workspaces', limit, createdAt),
  ];
}

/**
 * A workspace to act on: absent or being deleted is 404, suspended is 403 for whoever asks.
 * A delete may take up one that is being deleted: a delete sent again after one that was
 * interrupted goes on where it stopped.
 */
async function loadWorkspace(deps: Deps, id: string, { deleting = false } = {}) {
  const data = await itemByKey(deps.db, 'workspace', { id });
  if (!data || (data.deletingAt && !deleting)) throw new NotFound('workspace', id);
  if (data.suspendedAt) throw new WorkspaceSuspended(id, data.suspendedAt, data.suspendedReason ?? '');
  return data;
}

/**
 * The actor's role and the workspace, in that order: a non-member gets 404 before anything
 * of the workspace (its suspension, its reason) is read.
 */
async function memberWorkspace(deps: Deps, actor: Actor, id: string, options?: { deleting: boolean }) {
  const role = await roleIn(deps, id, actor);
  return { role, workspace: await loadWorkspace(deps, id, options) };
}

export async function getWorkspace(deps: Deps, actor: Actor, id: string) {
  return workspaceView((await memberWorkspace(deps, actor, id)).workspace);
}

/**
 * The user's workspaces in creation order: their memberships in gsi1, sorted by workspace
 * id (ULIDs of the creation time), then the page's workspaces by BatchGetItem.
 */
export function workspacesOf(deps: Deps, actor: Actor): ListSource<MembershipItem, ReturnType<typeof workspaceSummaryView>> {
  const { membership, workspace } = deps.db.entities;
  const { userId } = actor;
  const only = actor.limits?.workspaceId;
  return {
    ...counted(deps.db, collections.workspacesOfUser(userId)),
    // A credential bound to one workspace (an OAuth token) sees that one alone.
    ...(only ? { count: async () => 1 } : {}),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('workspace', after, before),
    read: keyOrderReader(membership, 'byUser', (range) => {
      if (only) return membership.query.byUser({ userId, workspaceId: only });
      const memberships = membership.query.byUser({ userId });
      return range ? memberships.between({ workspaceId: range.from }, { workspaceId: range.to }) : memberships;
    }),
    async view(rows) {
      if (!rows.length) return [];
      const { data } = await workspace.get(rows.map((m) => ({ id: m.workspaceId }))).go();
      const byId = new Map(data.map((w) => [w.id, w]));
      return rows.filter((m) => byId.has(m.workspaceId)).map((m) => workspaceSummaryView(byId.get(m.workspaceId)!));
    },
  };
}

export interface WorkspaceChanges {
  name?: string;
  settings?: SettingsPatch;
}

export async function updateWorkspace(deps: Deps, actor: Actor, id: string, changes: WorkspaceChanges) {
  const { role, workspace: first } = await memberWorkspace(deps, actor, id);
  requireRole(role, ['owner', 'admin'], 'change a workspace');
  const updated = await changeWorkspace(
    deps,
    id,
    async (current) => {
      // Suspended or being deleted since it was first read: refused as if it had been then.
      if (current.suspendedAt) throw new WorkspaceSuspended(id, current.suspendedAt, current.suspendedReason ?? '');
      if (current.deletingAt) throw new NotFound('workspace', id);
      const { settings, claims } = await patchedSettings(deps, id, current.settings, changes.settings);
      return {
        set: {
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          settings,
          updatedAt: isoNow(deps.clock),
        },
        events: (after) => [eventIn(id, actor, 'workspace.updated', workspaceView(after))],
        claims,
      };
    },
    first,
  );
  return workspaceView(updated);
}

/**
 * Deletes a workspace and all it owns under one `workspace.deleted`. Keys go first, so that
 * they stop working at once, and the workspace record last, so that an interrupted delete can
 * simply be sent again.
 */
export async function deleteWorkspace(deps: Deps, actor: Actor, id: string, { home, actingIn }: { home: string; actingIn?: string }) {
  const { role, workspace: current } = await memberWorkspace(deps, actor, id, { deleting: true });
  requireRole(role, ['owner'], 'delete a workspace');
  if (id === home) {
    throw new StateConflict(
      'This is the home workspace of the credential you are using; delete it with a credential of another workspace.',
      'home_workspace',
      'delete',
    );
  }
  const { entities } = deps.db;
  await markDeleting(deps, id);
  // First, so that its sites stop counting at once and their domains are free for others.
  const { data: marked } = await deps.db.entities.workspace.get({ id }).go({ consistent: true });
  await releaseSitesOf(deps, id, marked?.settings.pixel);
  // Strongly consistent: whatever was made before the mark is read, and nothing can be made after it.
  const [{ data: keys }, { data: members }, { data: invitations }] = await Promise.all([
    entities.apiKey.query.byWorkspace({ workspaceId: id }).go({ pages: 'all', consistent: true }),
    entities.membership.query.byWorkspace({ workspaceId: id }).go({ pages: 'all', consistent: true }),
    // An index, so only eventually consistent: one made in the instant before the mark may be missed; it lapses within a week, and is pruned.
    entities.invitation.query.byWorkspace({ workspaceId: id }).go({ pages: 'all' }),
  ]);
  if (keys.length) await entities.apiKey.delete(keys.map((k) => ({ workspaceId: id, id: k.id }))).go();
  await forgetCount(deps.db, collections.apiKeysOfWorkspace(id));
  await retireWebhookEndpointsOf(deps, id);
  await forgetContentOf(deps, id);
  await forgetSeoDataOf(deps, id);
  await forgetPixelDataOf(deps, id);
  // One at a time and each with its count; one already gone (declined, pruned, a repeated delete) is skipped.
  for (const member of members) {
    await forgetTokensHomedIn(deps, id, member.userId);
    await leave(deps, id, member.userId).catch(ignoreConditionFailure);
  }
  await forgetCount(deps.db, collections.membersOfWorkspace(id));
  for (const invitation of invitations) await removeInvitation(deps, invitation).catch(ignoreConditionFailure);
  await forgetPendingInvitationsInto(deps, id);
  await forgetWorkspaceNamespace(deps, id);
  await forgetUsage(deps, id);
  await entities.workspaceSlug.delete({ ownerId: current.ownerId, slug: current.slug }).go();
  // A delete sent twice at once: the second finds nothing left to delete, as if it were gone before.
  await goneAsNotFound('workspace', id, () =>
    commitWithEvents(
      deps,
      workspaceEvents('workspace.deleted', workspaceView(current), id, actor, actingIn),
      ({ workspace, usageCounter }) => [
        workspace
          .delete({ id })
          .where((attr, op) => op.exists(attr.id))
          .commit(),
        countOneFewerOf(usageCounter, workspaceOwnerCount(current.ownerId), 'workspaces', deps.clock.now()),
      ],
    ),
  );
  // The workspace is gone and the answer is 204 whatever happens here: a key API Gateway would not
  // remove now is the reconciliation job's to remove (gateway-key-reconciliation.ts).
  await removeGatewayKey(deps, current.gatewayKey).catch((error: unknown) =>
    telemetry().logger.warn('A deleted workspace kept its gateway key; the reconciliation job will remove it.', { workspaceId: id, error }),
  );
}

/** Marks the workspace as being deleted (workspace-open.ts); a delete sent again finds it marked and goes on. */
async function markDeleting(deps: Deps, id: string): Promise<void> {
  await deps.db.entities.workspace
    .patch({ id })
    .set({ deletingAt: isoNow(deps.clock) })
    .where((attr, op) => op.notExists(attr.deletingAt))
    .go({ response: 'none' })
    .catch(ignoreConditionFailure);
}

/** A member's personal tokens homed in the workspace: they could never act again. */
async function forgetTokensHomedIn(deps: Deps, workspaceId: string, userId: number): Promise<void> {
  const { userToken } = deps.db.entities;
  const { data } = await userToken.query.byUser({ userId }).go({ pages: 'all' });
  for (const token of data.filter((t) => t.workspaceId === workspaceId)) {
    await deleteUserToken(deps, token).catch(ignoreConditionFailure);
  }
}
