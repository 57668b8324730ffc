import type { Deps } from '../deps.ts';
import { AccessDenied, NotFound } from '../errors.ts';
import { hotPath } from '../store/database.ts';
import type { Role } from '../store/entities/membership.ts';

/**
 * The caller's role in a workspace. Not being a member reads as "no such workspace", so a
 * foreign id is indistinguishable from one that never existed.
 */
export async function roleIn(deps: Deps, workspaceId: string, userId: number): Promise<Role> {
  const { data } = await deps.db.entities.membership.get({ workspaceId, userId }).go(hotPath);
  if (!data) throw new NotFound('workspace', workspaceId);
  return data.role;
}

export function requireRole(role: Role, allowed: readonly Role[], action: string): void {
  if (!allowed.includes(role)) {
    throw new AccessDenied(`Only a workspace ${allowed.join(' or ')} may ${action}; you are a ${role}.`);
  }
}
