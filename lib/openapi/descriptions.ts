import type { CredentialType } from '#core/access/principal';
import { idempotencyRetentionSeconds } from '#core/http/idempotency/idempotent-requests';
import { takesIdempotencyKey } from '#core/http/idempotency/idempotent-routes';
import type { Route } from '#core/http/route-types';
import { defaultPerPage, maxPerPage } from '#core/lists/list-query';

/**
 * An operation's description: the route's own words (`description` in its routes.ts), then
 * what its route table says of it, in the same sentences everywhere: who may call it, the
 * scope, test and live keys, Idempotency-Key, pagination, the switch that turns it on.
 */
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
    ...(route.enabledBy ? [`**Only while \`${route.enabledBy}\` is on**; otherwise 404 ENDPOINT_NOT_FOUND.`] : []),
  ];
}

export const operationDescription = (route: Route): string =>
  [...(route.description ? [route.description] : []), ...whoMayCall(route), ...environments(route), ...behaviour(route)].join('\n\n');
