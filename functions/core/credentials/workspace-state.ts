import type { Suspension } from '#core/access/principal';
import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { readTogether } from '#core/store/conditions';

export interface WorkspaceState {
  exists: boolean;
  isMember: boolean;
  tier?: Tier;
  suspension?: Suspension;
  /** When a platform admin marked it unpaid. */
  unpaidSince?: string;
}

export function suspensionOf(workspace: { suspendedAt?: string; suspendedReason?: string } | null | undefined): Suspension | undefined {
  return workspace?.suspendedAt ? { suspendedAt: workspace.suspendedAt, reason: workspace.suspendedReason ?? '' } : undefined;
}

/** A workspace and the user's membership in it, in one strongly consistent read. */
export async function workspaceState(deps: Deps, workspaceId: string, userId: number): Promise<WorkspaceState> {
  const data = await readTogether(() =>
    deps.db.transaction
      .get(({ workspace, membership }) => [workspace.get({ id: workspaceId }).commit(), membership.get({ workspaceId, userId }).commit()])
      .go(),
  );
  const [workspace, membership] = data;
  return {
    // One being deleted is gone to everyone already.
    exists: !!workspace?.item && !workspace.item.deletingAt,
    isMember: !!membership?.item,
    tier: workspace?.item?.tier,
    suspension: suspensionOf(workspace?.item),
    unpaidSince: workspace?.item?.unpaidAt,
  };
}
