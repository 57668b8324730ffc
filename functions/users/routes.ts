import { listQuerySchema } from '#core/lists';
import type { RouteSpec } from '#core/route-types';
import { contextQuery, createdOf, dataOf, listOf, noContent } from '#schemas/common';
import { invitation, joinedWorkspace, sentInvitation } from '#schemas/invitations';
import { createdUserToken, createUserTokenBody, userToken, userTokenId } from '#schemas/user-tokens';
import { addMemberBody, member, updateUserBody, user, userId } from '#schemas/users';
import { workspaceId } from '#schemas/workspaces';
import * as z from 'zod/mini';

const memberList = {
  fields: ['id', 'name', 'email', 'tier', 'email_verified_at', 'created_at', 'role'],
  sortable: ['name', 'email', 'created_at', 'role'],
  searchable: ['name', 'email'],
} as const;

const invitationList = {
  fields: ['workspace_id', 'workspace_name', 'role', 'created_at', 'expires_at'],
  sortable: ['workspace_name', 'created_at', 'expires_at'],
  searchable: ['workspace_name'],
} as const;

const userTokenList = {
  fields: ['id', 'name', 'abilities', 'workspace_id', 'last_used_at', 'expires_at', 'created_at'],
  sortable: ['name', 'created_at', 'last_used_at', 'expires_at'],
  searchable: ['name'],
} as const;

/** The routes of the users function; functions/routes.ts composes every folder's table into the registry. */
export const userRoutes = [
  {
    operationId: 'listUsers',
    method: 'GET',
    path: '/users',
    auth: 'credential',
    scope: 'users:read',
    summary: 'List the members of the current workspace',
    tag: 'Users',
    query: listQuerySchema(memberList),
    list: memberList,
    responses: { 200: { description: 'A page of members.', schema: listOf(member) } },
  },
  {
    operationId: 'addUser',
    method: 'POST',
    path: '/users',
    auth: 'credential',
    scope: 'users:write',
    summary: 'Add a member to the current workspace: a new email becomes a user at once, an existing account is invited (owners and admins)',
    tag: 'Users',
    query: contextQuery,
    body: addMemberBody,
    responses: {
      201: { description: 'A new user, made a member.', schema: createdOf(member) },
      202: { description: 'An existing account, invited: it joins once it accepts.', schema: createdOf(sentInvitation) },
    },
  },
  {
    operationId: 'listInvitations',
    method: 'GET',
    path: '/user/invitations',
    auth: 'credential',
    scope: 'users:read',
    summary: 'Invitations into other workspaces waiting for you',
    tag: 'Users',
    allowSuspended: true,
    query: listQuerySchema(invitationList),
    list: invitationList,
    responses: { 200: { description: 'A page of invitations.', schema: listOf(invitation) } },
  },
  {
    operationId: 'acceptInvitation',
    method: 'POST',
    path: '/user/invitations/{workspace_id}/accept',
    auth: 'credential',
    scope: 'users:write',
    summary: 'Accept an invitation: join the workspace with the invited role',
    tag: 'Users',
    allowSuspended: true,
    params: z.object({ workspace_id: workspaceId }),
    query: contextQuery,
    responses: { 200: { description: 'The workspace joined.', schema: createdOf(joinedWorkspace) } },
  },
  {
    operationId: 'declineInvitation',
    method: 'DELETE',
    path: '/user/invitations/{workspace_id}',
    auth: 'credential',
    scope: 'users:write',
    summary: 'Decline an invitation',
    tag: 'Users',
    allowSuspended: true,
    params: z.object({ workspace_id: workspaceId }),
    query: contextQuery,
    responses: { 204: noContent },
  },
  {
    operationId: 'getCurrentUser',
    method: 'GET',
    path: '/user',
    auth: 'credential',
    scope: 'users:read',
    summary: 'The authenticated user',
    tag: 'Users',
    allowSuspended: true,
    query: contextQuery,
    responses: { 200: { description: 'The user.', schema: dataOf(user) } },
  },
  {
    operationId: 'updateUser',
    method: 'PATCH',
    path: '/users/{user_id}',
    auth: 'credential',
    scope: 'users:write',
    summary: 'Change a user: yourself, or as owner or admin of a workspace you share',
    tag: 'Users',
    params: z.object({ user_id: userId }),
    query: contextQuery,
    body: updateUserBody,
    responses: { 200: { description: 'The updated user.', schema: createdOf(user) } },
  },
  {
    operationId: 'createUserToken',
    method: 'POST',
    path: '/user/tokens',
    auth: 'credential',
    scope: 'users:write',
    credentials: ['session', 'user_token'],
    summary: 'Issue a personal access token `<id>|<secret>`, shown once',
    tag: 'User tokens',
    query: contextQuery,
    body: createUserTokenBody,
    responses: { 201: { description: 'The token, with `token` in full.', schema: createdOf(createdUserToken) } },
  },
  {
    operationId: 'listUserTokens',
    method: 'GET',
    path: '/user/tokens',
    auth: 'credential',
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
    auth: 'credential',
    scope: 'users:write',
    credentials: ['session', 'user_token'],
    summary: 'Revoke one of your tokens',
    tag: 'User tokens',
    params: z.object({ id: userTokenId }),
    query: contextQuery,
    responses: { 204: noContent },
  },
] as const satisfies readonly RouteSpec[];
