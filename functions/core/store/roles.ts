/**
 * A member's roles in a workspace. Plain values, apart from the entities, so that the
 * schemas that name them (and the route table the local runner's gateway matches) do not load ElectroDB.
 */
export const roles = ['owner', 'admin', 'member'] as const;
export type Role = (typeof roles)[number];

/** The roles an invitation or an added member may be given: a workspace has the one owner who made it. */
export const invitedRoles = ['admin', 'member'] as const;
export type InvitedRole = (typeof invitedRoles)[number];
