import * as z from 'zod/mini';
import { routeTable } from '#core/http/route-table';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { invitation, joinedWorkspace, sentInvitation } from '#core/members/invitation-schemas';
import { contextQuery, createdOf, dataOf, fieldsOf, noContent } from '#core/platform/common-schemas';
import { workspaceId } from '#core/tenancy/workspace-schemas';
import { accountMessage, addMemberBody, changePasswordBody, member, updateUserBody, user, userId } from '#core/users/user-schemas';
import { createdUserToken, createUserTokenBody, userToken, userTokenId } from '#core/users/user-token-schemas';

const memberList = {
  fields: fieldsOf(member),
  sortable: ['name', 'email', 'created_at', 'role'],
  searchable: ['name', 'email'],
} as const satisfies ListSpec<keyof typeof member.shape>;

const invitationList = {
  fields: fieldsOf(invitation),
  sortable: ['workspace_name', 'created_at', 'expires_at'],
  searchable: ['workspace_name'],
} as const satisfies ListSpec<keyof typeof invitation.shape>;

const userTokenList = {
  fields: fieldsOf(userToken),
  sortable: ['name', 'created_at', 'last_used_at', 'expires_at'],
  searchable: ['name'],
} as const satisfies ListSpec<keyof typeof userToken.shape>;

/** The routes of the users function; functions/routes.ts composes every folder's table into the registry. */
export const userRoutes = routeTable({ tag: 'Users', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'listUsers',
    method: 'GET',
    path: '/users',
    scope: 'users:read',
    summary: 'List the members of the current workspace',
    query: listQuerySchema(memberList),
    list: memberList,
    responses: { 200: { description: 'A page of members.', schema: listOf(member) } },
  },
  {
    operationId: 'addUser',
    method: 'POST',
    path: '/users',
    scope: 'users:write',
    summary: 'Invite someone into the current workspace by email and mail them (owners and admins); no account is created',
    body: addMemberBody,
    errors: ['ENTITLEMENT_DENIED'],
    responses: {
      202: {
        description: 'Invited, whether or not the email has an account: it joins once its person (registered and verified) accepts.',
        schema: createdOf(sentInvitation),
      },
    },
  },
  {
    operationId: 'listInvitations',
    method: 'GET',
    path: '/user/invitations',
    scope: 'users:read',
    summary: 'Invitations into other workspaces waiting for you',
    allowSuspended: true,
    query: listQuerySchema(invitationList),
    list: invitationList,
    responses: { 200: { description: 'A page of invitations.', schema: listOf(invitation) } },
  },
  {
    operationId: 'acceptInvitation',
    method: 'POST',
    path: '/user/invitations/{workspace_id}/accept',
    scope: 'users:write',
    summary: 'Accept an invitation: join the workspace with the invited role (the account’s email must be verified)',
    allowSuspended: true,
    errors: ['EMAIL_NOT_VERIFIED', 'ENTITLEMENT_DENIED'],
    params: z.object({ workspace_id: workspaceId }),
    responses: { 200: { description: 'The workspace joined.', schema: createdOf(joinedWorkspace) } },
  },
  {
    operationId: 'declineInvitation',
    method: 'DELETE',
    path: '/user/invitations/{workspace_id}',
    scope: 'users:write',
    summary: 'Decline an invitation',
    allowSuspended: true,
    params: z.object({ workspace_id: workspaceId }),
    responses: { 204: noContent },
  },
  {
    operationId: 'getCurrentUser',
    method: 'GET',
    path: '/user',
    scope: 'users:read',
    summary: 'The authenticated user',
    allowSuspended: true,
    responses: { 200: { description: 'The user.', schema: dataOf(user) } },
  },
  {
    operationId: 'updateUser',
    method: 'PATCH',
    path: '/users/{user_id}',
    scope: 'users:write',
    summary: 'Change your own account; a new email needs `current_password` and takes effect once the link mailed to it is opened',
    params: z.object({ user_id: userId }),
    body: updateUserBody,
    responses: {
      200: { description: 'The user; `message` says whether an email change waits for confirmation.', schema: createdOf(user) },
    },
  },
  {
    operationId: 'changePassword',
    method: 'PUT',
    path: '/user/password',
    scope: 'users:write',
    credentials: ['session', 'user_token'],
    allowSuspended: true,
    summary: 'Change your password (the current one required); ends your other sessions',
    body: changePasswordBody,
    responses: { 200: { description: 'Changed.', schema: accountMessage } },
  },
  {
    operationId: 'createUserToken',
    method: 'POST',
    path: '/user/tokens',
    scope: 'users:write',
    credentials: ['session', 'user_token'],
    summary: 'Issue a personal access token `<id>|<secret>`, shown once',
    tag: 'User tokens',
    body: createUserTokenBody,
    responses: { 201: { description: 'The token, with `token` in full.', schema: createdOf(createdUserToken) } },
  },
  {
    operationId: 'listUserTokens',
    method: 'GET',
    path: '/user/tokens',
    scope: 'users:read',
    credentials: ['session', 'user_token'],
    summary: "List the calling user's tokens (never the secrets)",
    tag: 'User tokens',
    query: listQuerySchema(userTokenList),
    list: userTokenList,
    responses: { 200: { description: 'A page of tokens.', schema: listOf(userToken) } },
  },
  {
    operationId: 'deleteUserToken',
    method: 'DELETE',
    path: '/user/tokens/{id}',
    scope: 'users:write',
    credentials: ['session', 'user_token'],
    summary: 'Revoke one of your tokens',
    tag: 'User tokens',
    params: z.object({ id: userTokenId }),
    responses: { 204: noContent },
  },
]);
