import { acceptInvitation, declineInvitation, invitationsOf } from '#core/domain/invitations';
import { addMember, membersOf } from '#core/domain/members';
import { issueUserToken, revokeUserToken, userTokensOf } from '#core/domain/user-tokens';
import { loadUser, updateUser, userView } from '#core/domain/users';
import type { HandlersFor } from '#core/http/types';
import { listPage } from '#core/lists/list-page';
import type { userRoutes } from './routes.ts';

export const userHandlers: HandlersFor<(typeof userRoutes)[number]> = {
  listUsers: async ({ workspaceId, query, route, url }, deps) => ({
    status: 200,
    body: await listPage(membersOf(deps, workspaceId), query, route.list, url),
  }),
  addUser: async ({ principal, workspaceId, body }, deps) => {
    const added = await addMember(deps, principal, workspaceId, body);
    return added.kind === 'added'
      ? { status: 201, body: { message: 'Member added.', data: added.member } }
      : { status: 202, body: { message: 'This email has an account: it was invited, and joins once it accepts.', data: added.invitation } };
  },
  listInvitations: async ({ principal, query, route, url }, deps) => ({
    status: 200,
    body: await listPage(invitationsOf(deps, principal.userId), query, route.list, url),
  }),
  acceptInvitation: async ({ principal, params }, deps) => ({
    status: 200,
    body: { message: 'Invitation accepted.', data: await acceptInvitation(deps, principal.userId, params.workspace_id) },
  }),
  declineInvitation: async ({ principal, params }, deps) => {
    await declineInvitation(deps, principal.userId, params.workspace_id);
    return { status: 204 };
  },
  getCurrentUser: async ({ principal }, deps) => ({
    status: 200,
    body: { data: userView(await loadUser(deps, principal.userId)) },
  }),
  updateUser: async ({ principal, params, body }, deps) => ({
    status: 200,
    body: { message: 'User updated.', data: await updateUser(deps, principal.userId, params.user_id, body) },
  }),
  createUserToken: async ({ principal, workspaceId, body }, deps) => ({
    status: 201,
    body: {
      message: 'Token created. Store it now: it is not shown again.',
      data: await issueUserToken(deps, principal, workspaceId, { name: body.name, abilities: body.abilities, expiresAt: body.expires_at }),
    },
  }),
  listUserTokens: async ({ principal, query, route, url }, deps) => ({
    status: 200,
    body: await listPage(userTokensOf(deps, principal.userId), query, route.list, url),
  }),
  deleteUserToken: async ({ principal, params }, deps) => {
    await revokeUserToken(deps, principal, params.id);
    return { status: 204 };
  },
};
