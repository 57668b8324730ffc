import type { RouteSpec } from '#core/route-types';
import { createdOf, dataOf, noContent } from '#schemas/common';
import { loginBody, registerBody, user } from '#schemas/users';

const session = { description: 'The user; the session and XSRF-TOKEN cookies are set.', schema: dataOf(user) };

/** The routes of the sessions function; functions/routes.ts composes every folder's table into the registry. */
export const sessionRoutes = [
  {
    operationId: 'register',
    method: 'POST',
    path: '/register',
    mount: 'root',
    auth: 'none',
    summary: 'Create a user with a personal workspace',
    tag: 'Sessions',
    body: registerBody,
    responses: { 201: { description: 'The new user.', schema: createdOf(user) } },
  },
  {
    operationId: 'login',
    method: 'POST',
    path: '/login',
    mount: 'root',
    auth: 'none',
    summary: 'Start a session: sets an HttpOnly session cookie and a readable XSRF-TOKEN cookie',
    tag: 'Sessions',
    body: loginBody,
    responses: { 200: session },
  },
  {
    operationId: 'logout',
    method: 'POST',
    path: '/logout',
    mount: 'root',
    auth: 'credential',
    scope: 'users:write',
    credentials: ['session'],
    allowSuspended: true,
    summary: 'End the session and clear its cookies',
    tag: 'Sessions',
    responses: { 204: noContent },
  },
] as const satisfies readonly RouteSpec[];
