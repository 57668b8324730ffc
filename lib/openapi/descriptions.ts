import type { CredentialType } from '#core/access/principal';
import { docsRoot } from '#core/docs/return-path';
import { idempotencyRetentionSeconds } from '#core/http/idempotency/idempotent-requests';
import { takesIdempotencyKey } from '#core/http/idempotency/idempotent-routes';
import type { Route } from '#core/http/route-types';
import { defaultPerPage, maxPerPage } from '#core/lists/list-query';

const credentialNames: Record<CredentialType, string> = {
  api_key: 'an API key',
  user_token: 'a user token',
  oauth: 'an OAuth access token',
  session: 'a session cookie',
};

const allCredentials = Object.keys(credentialNames) as CredentialType[];

const either = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : items[0]!);

function whoMayCall(route: Route): string[] {
  if (route.auth === 'none') return ['**Public**: no credential.'];
  // An unsafe method with the cookie also echoes the XSRF-TOKEN cookie (the xsrfToken scheme).
  const session = route.method === 'GET' ? credentialNames.session : `${credentialNames.session} with X-XSRF-TOKEN`;
  const credentials = (route.credentials ?? allCredentials).map((type) => (type === 'session' ? session : credentialNames[type]));
  return [
    `**Credentials**: ${either(credentials)}${route.credentials ? ' only' : ''}, granting \`${route.scope}\`.`,
    ...(route.platformAdmin ? ['**Platform operators only**: the bootstrap admin; anyone else is 403.'] : []),
  ];
}

function environments(route: Route): string[] {
  // Only an API key is a test credential: tokens, sessions and OAuth act live.
  if (route.auth === 'none' || (route.credentials && !route.credentials.includes('api_key'))) return [];
  if (route.keepsEnvironmentsApart)
    return ['**Test mode**: a test key (`sk_test_…`) reads and writes test records only, a live one live records.'];
  if (route.method !== 'GET')
    return ['**Test mode**: it changes live data, so a test key (`sk_test_…`) is refused with 403 ACCESS_DENIED.'];
  return [];
}

function behaviour(route: Route): string[] {
  return [
    ...(route.allowSuspended ? ['Answers even while the workspace is suspended.'] : []),
    ...(takesIdempotencyKey(route)
      ? [
          `**Idempotency-Key** (optional): a repeat within ${idempotencyRetentionSeconds / 3600} hours replays the first answer with \`Idempotent-Replayed: true\`; nothing is done twice.`,
        ]
      : []),
    ...(route.list
      ? [
          `**Paginated**: \`page\` (or \`cursor\` from \`links.next\`) and \`per_page\` (default ${defaultPerPage}; more than ${maxPerPage} is clamped to ${maxPerPage}); answers \`data\`, \`meta\` and \`links\`.`,
        ]
      : []),
    ...(route.runsOperations ? ["It runs the operation as your credential: the operation's own scope and rules apply too."] : []),
    ...(route.enabledBy ? [`**Only where the operator turns it on** (\`${route.enabledBy}\`); otherwise 404 ENDPOINT_NOT_FOUND.`] : []),
  ];
}

/**
 * An operation's description: the route's own words, then what its route table says of it in the
 * same sentences everywhere (who may call it, test keys, Idempotency-Key, pagination, its switch).
 */
export const operationDescription = (route: Route): string =>
  [...(route.description ? [route.description] : []), ...whoMayCall(route), ...environments(route), ...behaviour(route)].join('\n\n');

/** The document's own description, written for a client of the API: what it is, how to authenticate, errors, limits, versions. */
export const serviceDescription = [
  'A multi-tenant REST API. Everything you make lives in a workspace, which you own or are a member of (owner, admin or ' +
    'member): API keys, members and invitations, webhook endpoints and their deliveries, posts and categories, SEO reports ' +
    'and pixel statistics. Namespaces and entitlements say how much of each feature your plan allows, and every ' +
    'operation is also an MCP tool for AI clients.',
  '**Authentication.** Send an API key as `Authorization: Bearer sk_live_…`, or as HTTP Basic with the key as user name ' +
    'and an empty password. A test key (`sk_test_…`) reads and writes test records only, apart from live data. User ' +
    'tokens (`<id>|<secret>`), the session cookie of `POST /login` (with the `X-XSRF-TOKEN` header on writes) and, where ' +
    "the operator turns OAuth on, OAuth 2.0 access tokens work too. Each operation's `security` lists the credentials it " +
    'accepts and the scope it needs (`resource:action`, with wildcards); `X-Workspace-ID` makes a request act in another ' +
    'of your workspaces.',
  '**Errors.** Every error answers with one JSON envelope: `error` (a lowercase code), `error_code` (the same, ' +
    'uppercase), `message`, `request_id`, the fields of that code, and `meta`. Each operation lists the codes it may ' +
    'answer at each status. Every answer carries `X-Request-ID`: quote it when you report a problem.',
  "**Limits.** Requests count against your credential's allowance per minute, which your workspace's tier sets: every " +
    'authenticated answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`, and past the ' +
    'allowance the answer is 429 with `Retry-After`. A workspace also has a monthly `api_calls` quota and limits per ' +
    `feature (see Entitlements). Lists take \`page\` or the \`cursor\` of \`links.next\`, \`per_page\` (at most ${maxPerPage}), ` +
    '`sort`, `fields`, `search` and filters. A write sent with an `Idempotency-Key` can be retried safely.',
  '**Webhooks.** The events a webhook endpoint receives are listed under `webhooks`: each is a signed `POST` ' +
    '(`X-Webhook-Signature`, and the Standard Webhooks headers), retried on a fixed schedule until the endpoint answers 2XX.',
  '**Versions.** The version is part of the path (`/api/v1`), and a breaking change comes under a new one. A version ' +
    'that is to go away says so on every answer, with the `Deprecation` and `Sunset` headers.',
].join('\n\n');

/** Who answers for the API: the documentation of the deployment that serves it (the docs function sets its own base URL). */
export const apiContact = (baseUrl: string) => ({ name: 'Tenant API documentation', url: `${baseUrl}${docsRoot}` });

/** The licence of the repository's LICENSE file. */
export const apiLicense = { name: 'MIT', identifier: 'MIT' };
