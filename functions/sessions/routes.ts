import { routeTable } from '#core/http/route-table';
import { dataOf, noContent } from '#core/platform/common-schemas';
import {
  accountLinkParams,
  accountMessage,
  forgotPasswordBody,
  loginBody,
  openedLinkParams,
  registerBody,
  resetPasswordBody,
  user,
} from '#core/users/user-schemas';

const session = { description: 'The user; the session and XSRF-TOKEN cookies are set.', schema: dataOf(user) };

/** The routes of the sessions function; functions/routes.ts composes every folder's table into the registry. */
export const sessionRoutes = routeTable({ tag: 'Sessions', auth: 'none', mount: 'root' }, [
  {
    operationId: 'register',
    description:
      'Registration can be turned off (`REGISTRATION_ENABLED`). The answer is the same whether or not the email already has an account, so it tells nobody which addresses are registered.',
    method: 'POST',
    path: '/register',
    summary:
      'Create a user with a personal workspace and mail a verification link; answers alike for an email that has an account (its owner gets a mail instead)',
    body: registerBody,
    responses: {
      202: { description: 'Accepted: a mail is on its way to the address, whether or not it had an account.', schema: accountMessage },
    },
  },
  {
    operationId: 'openVerificationLink',
    method: 'GET',
    path: '/email/verify/{id}/{token}',
    summary: 'Open a mailed verification link: a page whose button verifies (POST); opening it, or HEAD, changes nothing',
    params: openedLinkParams,
    responses: { 200: { description: 'The page with the button.', html: true } },
  },
  {
    operationId: 'verifyEmail',
    method: 'POST',
    path: '/email/verify/{id}/{token}',
    summary: "The verification link's button (60 minutes): sets email_verified_at; pressed again, says the address is verified already",
    params: accountLinkParams,
    // RESOURCE_LOCKED: the account kept being changed by others while the link was opened.
    errors: ['ACCESS_DENIED', 'RESOURCE_LOCKED'],
    htmlRefusals: true,
    responses: {
      200: {
        description: 'The email is verified (now or before): a page, or JSON when Accept asks for application/json.',
        schema: accountMessage,
        html: true,
      },
    },
  },
  {
    operationId: 'sendVerificationLink',
    method: 'POST',
    path: '/email/verification-notification',
    auth: 'credential',
    scope: 'users:write',
    credentials: ['session', 'user_token'],
    allowSuspended: true,
    summary: 'Mail a new verification link (six a minute)',
    responses: {
      200: { description: 'The email is verified already: nothing was sent.', schema: accountMessage },
      202: { description: 'A new link is on its way.', schema: accountMessage },
    },
  },
  {
    operationId: 'openEmailChangeLink',
    method: 'GET',
    path: '/email/change/{id}/{token}',
    summary: 'Open a link mailed to a new address: a page whose button confirms it (POST); opening it, or HEAD, changes nothing',
    params: openedLinkParams,
    responses: { 200: { description: 'The page with the button.', html: true } },
  },
  {
    operationId: 'confirmEmailChange',
    method: 'POST',
    path: '/email/change/{id}/{token}',
    summary: "The email change link's button (60 minutes): the new address becomes the account's email, verified; pressed again, says so",
    params: accountLinkParams,
    // Invalid, used or expired; the address taken by another account meanwhile; the account changed meanwhile.
    errors: ['ACCESS_DENIED', 'DUPLICATE_RESOURCE', 'STATE_CONFLICT'],
    htmlRefusals: true,
    responses: {
      200: {
        description: 'The email has changed (now or before): a page, or JSON when Accept asks for application/json.',
        schema: accountMessage,
        html: true,
      },
    },
  },
  {
    operationId: 'forgotPassword',
    method: 'POST',
    path: '/forgot-password',
    summary: 'Mail a password reset link if the email has an account; answers alike either way',
    body: forgotPasswordBody,
    responses: { 202: { description: 'Accepted: a link is on its way if the email has an account.', schema: accountMessage } },
  },
  {
    operationId: 'resetPassword',
    method: 'POST',
    path: '/reset-password',
    summary: 'Set a new password with a mailed token (60 minutes, once); ends every session of the user',
    body: resetPasswordBody,
    // RESOURCE_LOCKED: the account kept being changed by others meanwhile.
    errors: ['RESOURCE_LOCKED'],
    responses: { 200: { description: 'The password is changed; log in with it.', schema: accountMessage } },
  },
  {
    operationId: 'login',
    description:
      'Answers the user and sets two cookies: `session` (HttpOnly) and `XSRF-TOKEN` (readable), whose value every POST, PUT, PATCH or DELETE made with the cookie sends back in X-XSRF-TOKEN. Repeated failures for an email or an address are throttled (429).',
    method: 'POST',
    path: '/login',
    summary: 'Start a session: sets an HttpOnly session cookie and a readable XSRF-TOKEN cookie',
    body: loginBody,
    responses: { 200: session },
  },
  {
    operationId: 'logout',
    method: 'POST',
    path: '/logout',
    auth: 'credential',
    scope: 'users:write',
    credentials: ['session'],
    allowSuspended: true,
    summary: 'End the session and clear its cookies',
    responses: { 204: noContent },
  },
]);
