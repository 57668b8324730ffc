import { requireUnboundCredential } from '#core/access/issuance-limits';
import { updateUser } from '#core/accounts/account-changes';
import { changePassword } from '#core/accounts/password-changes';
import { handlersFor } from '#core/http/handlers';
import { listPage } from '#core/lists/list-page';
import { acceptInvitation, declineInvitation, invitationsOf } from '#core/members/invitations';
import { addMember, membersOf } from '#core/members/members';
import { config } from '#core/platform/config';
import { accountLinks } from '#core/users/account-mail';
import { issueUserToken, revokeUserToken, userTokensOf } from '#core/users/user-tokens';
import { userView } from '#core/users/user-view';
import { loadUser } from '#core/users/users';
import type { userRoutes } from './routes.ts';

const linksFor = (baseUrl: string) => accountLinks(baseUrl, config().API_PREFIX);

export const userHandlers = handlersFor<(typeof userRoutes)[number]>()({
  listUsers: async ({ workspaceId, query, route, url }, deps) => ({
    status: 200,
    body: await listPage(membersOf(deps, workspaceId), query, route.list, url),
  }),
  addUser: async ({ principal, workspaceId, body, baseUrl }, deps) => ({
    status: 202,
    // The same words whether or not the email has an account.
    body: {
      message: 'Invited: we mailed the address, and it joins once its person accepts.',
      data: await addMember(deps, principal, workspaceId, body, linksFor(baseUrl)),
    },
  }),
  listInvitations: async ({ principal, query, route, url }, deps) => {
    // Invitations are into other workspaces, which a token bound to one does not see.
    requireUnboundCredential(principal, 'see invitations into other workspaces');
    return { status: 200, body: await listPage(invitationsOf(deps, principal.userId), query, route.list, url) };
  },
  acceptInvitation: async ({ principal, params }, deps) => {
    requireUnboundCredential(principal, 'join other workspaces');
    return {
      status: 200,
      body: { message: 'Invitation accepted.', data: await acceptInvitation(deps, principal.userId, params.workspace_id, principal) },
    };
  },
  declineInvitation: async ({ principal, params }, deps) => {
    requireUnboundCredential(principal, 'answer invitations into other workspaces');
    await declineInvitation(deps, principal.userId, params.workspace_id, principal);
    return { status: 204 };
  },
  getCurrentUser: async ({ principal }, deps) => ({
    status: 200,
    body: { data: userView(await loadUser(deps, principal.userId)) },
  }),
  updateUser: async ({ principal, params, body, baseUrl }, deps) => {
    requireUnboundCredential(principal, 'change accounts');
    const changes = { name: body.name, email: body.email, currentPassword: body.current_password };
    const { user, emailChangeMailed } = await updateUser(deps, principal.userId, params.user_id, changes, linksFor(baseUrl), principal);
    const message = emailChangeMailed
      ? 'Saved. The email changes once the link we mailed to the new address is opened and its button pressed (within 60 minutes).'
      : 'User updated.';
    return { status: 200, body: { message, data: user } };
  },
  changePassword: async ({ principal, body }, deps) => {
    const keepSessionDigest = principal.credential.type === 'session' ? principal.credential.id : undefined;
    await changePassword(
      deps,
      { userId: principal.userId, currentPassword: body.current_password, password: body.password, keepSessionDigest },
      principal,
    );
    return { status: 200, body: { message: 'Password changed; your other sessions have ended.' } };
  },
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
});
