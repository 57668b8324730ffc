import type { CredentialType } from '#core/access/principal';
import { documentedPath, type Route } from '#core/http/route-types';
import { routes } from '#routes';
import { markdownTable } from './markdown-table.ts';

const credentialNames: Record<CredentialType, string> = {
  api_key: 'API key',
  user_token: 'user token',
  session: 'session',
  oauth: 'OAuth access token',
};

const endpoint = (route: Route) => `\`${route.method} ${route.mount === 'root' ? '{base_url}' : ''}${documentedPath(route.path)}\``;

function callerNeeds(route: Route): string {
  if (route.auth === 'none') return 'public';
  return [
    `\`${route.scope}\``,
    ...(route.credentials ? [route.credentials.map((type) => credentialNames[type]).join(' or ')] : []),
    ...(route.platformAdmin ? ['platform admin'] : []),
    ...(route.allowSuspended ? ['also while suspended'] : []),
  ].join('; ');
}

function doesAndAnswers(route: Route): string {
  const answers = Object.entries(route.responses).map(([status, { description }]) => `${status}: ${description}`);
  const switchedOff = route.enabledBy ? [`404: While \`${route.enabledBy}\` is off.`] : [];
  return [`${route.summary}.`, ...answers, ...switchedOff].join(' ');
}

/**
 * The endpoint table of docs/endpoints.md, one row per route of the registry, so that the two cannot
 * drift (test/unit/endpoint-table.test.ts compares them).
 */
export function endpointTable(): string {
  const rows = (routes as readonly Route[]).map((route) => [
    endpoint(route),
    `\`${route.function}\``,
    callerNeeds(route),
    doesAndAnswers(route),
  ]);
  return markdownTable(['method and path', 'function', 'caller needs', 'does and answers'], rows);
}
