import type { EntityItem } from 'electrodb';
import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { commitOrThrow, isConditionFailure } from '../store/conditions.ts';
import type { Database } from '../store/database.ts';
import { workspaceSummaryView } from './workspace-view.ts';

type InvitationItem = EntityItem<Database['entities']['invitation']>;

/** Past its TTL an invitation has lapsed, whether or not DynamoDB has removed it yet. */
const isOpen = (item: InvitationItem, now: Date) => item.ttl * 1000 > now.getTime();

/** The invitations waiting for a user, with the inviting workspace's name. */
export async function listInvitations(deps: Deps, userId: number) {
  const { data } = await deps.db.entities.invitation.query.byUser({ userId }).go({ pages: 'all' });
  const now = deps.clock.now();
  const open = data.filter((item) => isOpen(item, now));
  if (!open.length) return [];
  const { data: workspaces } = await deps.db.entities.workspace.get(open.map((i) => ({ id: i.workspaceId }))).go();
  const names = new Map(workspaces.map((w) => [w.id, w.name]));
  return open
    .filter((item) => names.has(item.workspaceId))
    .map((item) => ({
      workspace_id: item.workspaceId,
      workspace_name: names.get(item.workspaceId)!,
      role: item.role,
      created_at: item.createdAt,
      expires_at: new Date(item.ttl * 1000).toISOString(),
    }));
}

async function openInvitation(deps: Deps, userId: number, workspaceId: string) {
  const { data } = await deps.db.entities.invitation.get({ userId, workspaceId }).go({ consistent: true });
  if (!data || !isOpen(data, deps.clock.now())) throw new NotFound('invitation', workspaceId);
  return data;
}

/** Joins the workspace with the invited role; the invitation is used up. */
export async function acceptInvitation(deps: Deps, userId: number, workspaceId: string) {
  const invitation = await openInvitation(deps, userId, workspaceId);
  const { data: workspace } = await deps.db.entities.workspace.get({ id: workspaceId }).go();
  if (!workspace) throw new NotFound('invitation', workspaceId);
  try {
    await commitOrThrow(() =>
      deps.db.transaction
        .write(({ membership, invitation: invitations }) => [
          membership.create({ workspaceId, userId, role: invitation.role, createdAt: deps.clock.now().toISOString() }).commit(),
          invitations.delete({ userId, workspaceId }).commit(),
        ])
        .go(),
    );
  } catch (error) {
    // Accepted twice at once, or a member already: either way nothing is left to accept.
    if (isConditionFailure(error)) throw new NotFound('invitation', workspaceId);
    throw error;
  }
  return { ...workspaceSummaryView(workspace), role: invitation.role };
}

export async function declineInvitation(deps: Deps, userId: number, workspaceId: string): Promise<void> {
  await openInvitation(deps, userId, workspaceId);
  await deps.db.entities.invitation.delete({ userId, workspaceId }).go();
}
