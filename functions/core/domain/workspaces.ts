import type { EntityItem } from 'electrodb';
import { isoNow } from '../clock.ts';
import type { Actor } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { DuplicateResource, NotFound, StateConflict, ValidationFailed, WorkspaceSuspended } from '../errors.ts';
import { idsCreatedWithin, newId } from '../ids.ts';
import type { ListSource } from '../lists/list-source.ts';
import { forgetWorkspaceNamespace, workspaceNamespace } from '../namespaces/defaults.ts';
import { eventIn, type Acting } from '../events/origins.ts';
import { commitWithEvents } from '../events/outbox.ts';
import { commitOrThrow, goneAsNotFound, isConditionFailure } from '../store/conditions.ts';
import { hotPath, type Database } from '../store/database.ts';
import { keyOrderReader } from '../store/key-order.ts';
import { collections, counted, countOneFewer, countOneMore, forgetCount } from '../store/list-counts.ts';
import { defaultTier, tierAbove, type Tier } from '../tiers.ts';
import type { GatewayKey } from '../gateway/gateway-keys.ts';
import { forgetUsage } from '../entitlements/usage.ts';
import { removeInvitation } from './invitations.ts';
import { requireRole, roleIn } from './membership.ts';
import { loadUser } from './users.ts';
import { removeGatewayKey, withGatewayKey } from './workspace-gateway-keys.ts';
import { changeWorkspace } from './workspace-changes.ts';
import { workspaceSummaryView, workspaceView } from './workspace-view.ts';
import { retireWebhookEndpointsOf } from '../webhooks/endpoint-removal.ts';

export const defaultSettings = { timezone: 'UTC', locale: 'en' };

export interface NewWorkspace {
  name: string;
  slug?: string;
  tier?: Tier;
  settings?: Partial<typeof defaultSettings>;
}

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug || 'workspace';
}

/** The first of `base`, `base-2`, `base-3` ... that the owner has not used. */
async function freeSlug(deps: Deps, ownerId: number, base: string): Promise<string> {
  const { data } = await deps.db.entities.workspaceSlug.query.byOwner({ ownerId }).begins({ slug: base }).go({ pages: 'all' });
  const taken = new Set(data.map((claim) => claim.slug));
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/**
 * A workspace's tier never exceeds its creator's own tier (their subscription), unless the
 * creator is a platform admin; platform admins change tiers later (workspace-tier.ts).
 */
async function requireTierWithin(deps: Deps, ownerId: number, tier: Tier | undefined): Promise<void> {
  if (!tier || tier === defaultTier) return;
  const owner = await loadUser(deps, ownerId);
  if (tierAbove(tier, owner.tier) && !owner.platformAdmin) {
    throw new ValidationFailed({ tier: [`must not be above your own tier, ${owner.tier}; a platform admin can change a workspace's tier`] });
  }
}

/**
 * Creates a workspace owned by `ownerId`; `id` when its id was chosen already (an account's
 * personal workspace, which the user's record names first), `acting` the credential whose
 * environment its `workspace.created` event carries.
 */
export async function createWorkspace(deps: Deps, ownerId: number, input: NewWorkspace, { id, acting }: { id?: string; acting?: Acting } = {}) {
  await requireTierWithin(deps, ownerId, input.tier);
  const createdAt = deps.clock.now();
  const workspaceId = id ?? newId('workspace', createdAt);
  const tier = input.tier ?? defaultTier;
  return withGatewayKey(deps, workspaceId, tier, (gatewayKey) =>
    storeWorkspace(deps, ownerId, input, { id: workspaceId, tier, createdAt, gatewayKey }, acting),
  );
}

/** The workspace's records, in one transaction with its owner's membership, slug claim and `workspace.created`. */
async function storeWorkspace(
  deps: Deps,
  ownerId: number,
  input: NewWorkspace,
  { id, tier, createdAt, gatewayKey }: { id: string; tier: Tier; createdAt: Date; gatewayKey?: GatewayKey },
  acting: Acting | undefined,
) {
  const now = createdAt.toISOString();
  const item = {
    id,
    name: input.name,
    tier,
    ownerId,
    settings: { ...defaultSettings, ...input.settings },
    // Without a key of its own it shares its tier's, and waits for one (domain/gateway-key-reconciliation.ts).
    ...(gatewayKey ? { gatewayKey } : { sharingSince: now }),
    createdAt: now,
    updatedAt: now,
  };
  // A concurrent create may take the chosen auto slug first; the claim is conditional, so retry.
  for (let attempt = 0; ; attempt++) {
    const slug = input.slug ?? (await freeSlug(deps, ownerId, slugify(input.name)));
    const view = workspaceView({ ...item, slug });
    try {
      await commitWithEvents(deps, [eventIn(id, acting, 'workspace.created', view)], ({ workspace, membership, workspaceSlug, counter, namespace }) => [
        workspace.create({ ...item, slug }).commit(),
        workspaceNamespace(namespace, { id, name: input.name, slug, createdAt: now }),
        membership.create({ workspaceId: id, userId: ownerId, role: 'owner', createdAt: now }).commit(),
        workspaceSlug.create({ ownerId, slug, workspaceId: id }).commit(),
        countOneMore(counter, collections.workspacesOfUser(ownerId)),
        countOneMore(counter, collections.membersOfWorkspace(id)),
      ]);
      return view;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (input.slug) {
        const { data } = await deps.db.entities.workspaceSlug.get({ ownerId, slug }).go();
        throw new DuplicateResource('workspace', 'slug', data?.workspaceId);
      }
      if (attempt >= 3) throw error;
    }
  }
}

/** A workspace to act on: absent is 404, suspended is 403 for whoever asks. */
async function loadWorkspace(deps: Deps, id: string) {
  const { data } = await deps.db.entities.workspace.get({ id }).go(hotPath);
  if (!data) throw new NotFound('workspace', id);
  if (data.suspendedAt) throw new WorkspaceSuspended(id, data.suspendedAt, data.suspendedReason ?? '');
  return data;
}

/**
 * The actor's role and the workspace, in that order: a non-member gets 404 before anything
 * of the workspace (its suspension, its reason) is read.
 */
async function memberWorkspace(deps: Deps, actor: Actor, id: string) {
  const role = await roleIn(deps, id, actor);
  return { role, workspace: await loadWorkspace(deps, id) };
}

export async function getWorkspace(deps: Deps, actor: Actor, id: string) {
  return workspaceView((await memberWorkspace(deps, actor, id)).workspace);
}

type MembershipItem = EntityItem<Database['entities']['membership']>;

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
  settings?: Partial<typeof defaultSettings>;
}

export async function updateWorkspace(deps: Deps, actor: Actor, id: string, changes: WorkspaceChanges) {
  const { role, workspace: first } = await memberWorkspace(deps, actor, id);
  requireRole(role, ['owner', 'admin'], 'change a workspace');
  const updated = await changeWorkspace(
    deps,
    id,
    (current) => {
      // Suspended since it was first read: refused as if it had been then.
      if (current.suspendedAt) throw new WorkspaceSuspended(id, current.suspendedAt, current.suspendedReason ?? '');
      return {
        set: {
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          settings: { ...current.settings, ...changes.settings },
          updatedAt: isoNow(deps.clock),
        },
        events: (after) => [eventIn(id, actor, 'workspace.updated', workspaceView(after))],
      };
    },
    first,
  );
  return workspaceView(updated);
}

/**
 * Deletes a workspace and all it owns, reported by one `workspace.deleted` (its keys,
 * members and invitations go with it without events of their own). Keys go first so that they stop working at once;
 * each membership and invitation goes with its count in its user's lists; the workspace
 * record goes last, so an interrupted delete can simply be sent again; its gateway key
 * after it, as nothing reads the key once the workspace is gone.
 */
export async function deleteWorkspace(deps: Deps, actor: Actor, id: string, homeWorkspaceId: string) {
  const { role, workspace: current } = await memberWorkspace(deps, actor, id);
  requireRole(role, ['owner'], 'delete a workspace');
  if (id === homeWorkspaceId) {
    throw new StateConflict(
      'This is the home workspace of the credential you are using; delete it with a credential of another workspace.',
      'home_workspace',
      'delete',
    );
  }
  const { entities } = deps.db;
  const [{ data: keys }, { data: members }, { data: invitations }] = await Promise.all([
    entities.apiKey.query.byWorkspace({ workspaceId: id }).go({ pages: 'all' }),
    entities.membership.query.byWorkspace({ workspaceId: id }).go({ pages: 'all' }),
    entities.invitation.query.byWorkspace({ workspaceId: id }).go({ pages: 'all' }),
  ]);
  if (keys.length) await entities.apiKey.delete(keys.map((k) => ({ workspaceId: id, id: k.id }))).go();
  await forgetCount(deps.db, collections.apiKeysOfWorkspace(id));
  await retireWebhookEndpointsOf(deps, id);
  // One at a time and each with its count; one already gone (declined, pruned, a repeated delete) is skipped.
  const alreadyGone = (error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  };
  for (const member of members) await leave(deps, id, member.userId).catch(alreadyGone);
  await forgetCount(deps.db, collections.membersOfWorkspace(id));
  for (const invitation of invitations) await removeInvitation(deps, invitation).catch(alreadyGone);
  await forgetWorkspaceNamespace(deps, id);
  await forgetUsage(deps, id);
  await entities.workspaceSlug.delete({ ownerId: current.ownerId, slug: current.slug }).go();
  // A delete sent twice at once: the second finds nothing left to delete, as if it were gone before.
  await goneAsNotFound('workspace', id, () =>
    commitWithEvents(deps, [eventIn(id, actor, 'workspace.deleted', workspaceView(current))], ({ workspace }) => [
      workspace.delete({ id }).where((attr, op) => op.exists(attr.id)).commit(),
    ]),
  );
  await removeGatewayKey(deps, current.gatewayKey);
}

/** Ends a membership, counted out of the user's workspaces (the workspace's own count goes with it). */
function leave(deps: Deps, workspaceId: string, userId: number) {
  return commitOrThrow(() =>
    deps.db.transaction
      .write(({ membership, counter }) => [
        membership.delete({ workspaceId, userId }).where((attr, op) => op.exists(attr.role)).commit(),
        countOneFewer(counter, collections.workspacesOfUser(userId)),
      ])
      .go(),
  );
}
