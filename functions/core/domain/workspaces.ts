import { isoNow } from '../clock.ts';
import type { Actor } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { DuplicateResource, NotFound, StateConflict, WorkspaceSuspended } from '../errors.ts';
import { newId } from '../ids.ts';
import { commitOrThrow, goneAsNotFound, isConditionFailure } from '../store/conditions.ts';
import { hotPath } from '../store/database.ts';
import { defaultTier, type Tier } from '../tiers.ts';
import { requireRole, roleIn } from './membership.ts';
import { workspaceSummaryView, workspaceView } from './workspace-view.ts';

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

export async function createWorkspace(deps: Deps, ownerId: number, input: NewWorkspace) {
  const id = newId('workspace');
  const now = isoNow(deps.clock);
  const item = {
    id,
    name: input.name,
    tier: input.tier ?? defaultTier,
    ownerId,
    settings: { ...defaultSettings, ...input.settings },
    createdAt: now,
    updatedAt: now,
  };
  // A concurrent create may take the chosen auto slug first; the claim is conditional, so retry.
  for (let attempt = 0; ; attempt++) {
    const slug = input.slug ?? (await freeSlug(deps, ownerId, slugify(input.name)));
    try {
      await commitOrThrow(() =>
        deps.db.transaction
          .write(({ workspace, membership, workspaceSlug }) => [
            workspace.create({ ...item, slug }).commit(),
            membership.create({ workspaceId: id, userId: ownerId, role: 'owner', createdAt: now }).commit(),
            workspaceSlug.create({ ownerId, slug, workspaceId: id }).commit(),
          ])
          .go(),
      );
      return workspaceView({ ...item, slug });
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

export async function getWorkspace(deps: Deps, actor: Actor, id: string) {
  const [, item] = await Promise.all([roleIn(deps, id, actor), loadWorkspace(deps, id)]);
  return workspaceView(item);
}

/** The user's workspaces in creation order (ids are ULIDs, so id order is creation order). */
export async function listWorkspaces(deps: Deps, userId: number) {
  const { data: memberships } = await deps.db.entities.membership.query.byUser({ userId }).go({ pages: 'all' });
  if (!memberships.length) return [];
  const { data } = await deps.db.entities.workspace.get(memberships.map((m) => ({ id: m.workspaceId }))).go();
  return data.sort((a, b) => a.id.localeCompare(b.id)).map(workspaceSummaryView);
}

export interface WorkspaceChanges {
  name?: string;
  settings?: Partial<typeof defaultSettings>;
}

export async function updateWorkspace(deps: Deps, actor: Actor, id: string, changes: WorkspaceChanges) {
  const [role, current] = await Promise.all([roleIn(deps, id, actor), loadWorkspace(deps, id)]);
  requireRole(role, ['owner', 'admin'], 'change a workspace');
  const { data } = await goneAsNotFound('workspace', id, () =>
    deps.db.entities.workspace
      .patch({ id })
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        settings: { ...current.settings, ...changes.settings },
        updatedAt: isoNow(deps.clock),
      })
      .go({ response: 'all_new' }),
  );
  return workspaceView(data as typeof current);
}

/**
 * Deletes a workspace and all it owns. Keys go first so that they stop working at once;
 * the workspace record goes last, so an interrupted delete can simply be sent again.
 */
export async function deleteWorkspace(deps: Deps, actor: Actor, id: string, homeWorkspaceId: string) {
  const [role, current] = await Promise.all([roleIn(deps, id, actor), loadWorkspace(deps, id)]);
  requireRole(role, ['owner'], 'delete a workspace');
  if (id === homeWorkspaceId) {
    throw new StateConflict(
      'This is the home workspace of the credential you are using; delete it with a credential of another workspace.',
      'home_workspace',
      'delete',
    );
  }
  const { entities } = deps.db;
  const [{ data: keys }, { data: members }] = await Promise.all([
    entities.apiKey.query.byWorkspace({ workspaceId: id }).go({ pages: 'all' }),
    entities.membership.query.byWorkspace({ workspaceId: id }).go({ pages: 'all' }),
  ]);
  if (keys.length) await entities.apiKey.delete(keys.map((k) => ({ workspaceId: id, id: k.id }))).go();
  if (members.length) await entities.membership.delete(members.map((m) => ({ workspaceId: id, userId: m.userId }))).go();
  await entities.workspaceSlug.delete({ ownerId: current.ownerId, slug: current.slug }).go();
  await entities.workspace.delete({ id }).go();
}
