import type { CredentialType } from '#core/access/principal';
import { type KnownScope, knownScopes, scopeAliases } from '#core/access/scopes';
import { apiKeyRandomLength } from '#core/api-keys/api-key-format';
import { sessionCookie, xsrfCookie } from '#core/credentials/credential-header';
import type { Route } from '#core/http/route-types';
import { accessTokenLifetimeSeconds, refreshTokenLifetimeSeconds } from '#core/oauth/token-lifetimes';

/**
 * The security side of openapi.yaml: one scheme per way a credential is presented
 * (credentials/credential-header.ts reads them), and each operation's requirements: the
 * credentials its route accepts, with the scope it checks.
 */

/** What each scope lets a credential do; tsc holds the table to the scope catalogue. */
const scopeDescriptions: Record<KnownScope, string> = {
  'posts:read': 'Read posts (without their content unless posts:read-content is held too)',
  'posts:write': 'Create, change, publish and archive posts',
  'posts:delete': 'Delete posts',
  'posts:read-content': "See a post's content, in answers and in post events",
  'categories:read': 'Read categories',
  'categories:write': 'Create and change categories',
  'categories:delete': 'Delete categories',
  'analytics:read': 'Read pixel statistics',
  'workspaces:read': 'Read your workspaces',
  'workspaces:write': 'Create and change workspaces',
  'workspaces:delete': 'Delete workspaces',
  'api-keys:read': 'Read API keys (never their secrets)',
  'api-keys:write': 'Create and rotate API keys',
  'api-keys:delete': 'Revoke API keys',
  'webhooks:read': 'Read webhook endpoints and their deliveries',
  'webhooks:write': 'Create, change, test and rotate webhook endpoints; retry deliveries',
  'webhooks:delete': 'Delete webhook endpoints',
  'entitlements:read': 'Check entitlements and read their summary',
  'entitlements:write': 'Record usage of a feature',
  'seo:read': 'Read SEO reports and issues',
  'seo:write': 'Submit SEO reports',
  'mcp:read': 'List MCP servers, tools and resources; speak the MCP protocol',
  'mcp:write': 'Call MCP tools (each tool needs its own scope as well)',
  'users:read': 'Read your account, members, invitations and user tokens',
  'users:write': 'Change your account and tokens, invite members, answer invitations and OAuth consents',
  'namespaces:read': 'Read namespaces',
  'usage:read': "Read the month's usage",
  'resources:write': 'Run batches of resource operations',
};

const aliasDescription = (alias: string) =>
  alias === 'admin:*' ? 'Platform operators: everything (`*`)' : `The same as ${scopeAliases[alias]!.map((s) => `\`${s}\``).join(', ')}`;

const oauthScopes = {
  ...scopeDescriptions,
  ...Object.fromEntries(Object.keys(scopeAliases).map((alias) => [alias, aliasDescription(alias)])),
  '*': 'Everything the approving user may do',
};

/** The knownScopes array and the description table must name the same scopes. */
if (Object.keys(scopeDescriptions).length !== knownScopes.length) throw new Error('a scope has no description');

/**
 * `prefix` is where the versioned routes live (`/api/v1`); the OAuth endpoints live at the
 * base URL, so their URLs are written relative to the server's URL (OpenAPI 3.1 resolves
 * them against it): `../oauth/token` from `{base_url}/api/v1` is `{base_url}/oauth/token`.
 */
const fromPrefixToBase = (prefix: string) => '../'.repeat(prefix.split('/').filter(Boolean).length - 1);

export function securitySchemes(prefix: string) {
  const base = fromPrefixToBase(prefix);
  const tokenUrl = `${base}oauth/token`;
  return {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API key',
      description: `An API key, \`sk_live_\` or \`sk_test_\` and ${apiKeyRandomLength} letters or digits: \`Authorization: Bearer sk_test_…\`. A test key reads and writes test records only.`,
    },
    basicAuth: {
      type: 'http',
      scheme: 'basic',
      description: 'The same API key as HTTP Basic: the key as user name and an empty password (`curl -u "$KEY:"`).',
    },
    userToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: '<id>|<secret>',
      description:
        'A user token of `POST /user/tokens`, `<id>|<secret>`: `Authorization: Bearer 7|…`. It acts as its user, with its abilities as scopes.',
    },
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: sessionCookie,
      description: `The HttpOnly session cookie \`POST /login\` sets; a session holds every scope of its user. A POST, PUT, PATCH or DELETE needs xsrfToken as well.`,
    },
    xsrfToken: {
      type: 'apiKey',
      in: 'header',
      name: 'X-XSRF-TOKEN',
      description: `With the session cookie on a POST, PUT, PATCH or DELETE: the value of the readable \`${xsrfCookie}\` cookie \`POST /login\` sets (double submit), else 403 ACCESS_DENIED.`,
    },
    oauth2: {
      type: 'oauth2',
      description:
        `OAuth 2.0 access tokens (Bearer), where the operator turns OAuth on: the authorization code grant with PKCE (S256, every client), for a user's consent; ` +
        `client credentials for a confidential client acting as its owner. Access tokens live ${accessTokenLifetimeSeconds / 60} minutes; ` +
        `the code grant's refresh tokens ${refreshTokenLifetimeSeconds / 86400} days, each usable once. The operator registers clients.`,
      flows: {
        authorizationCode: { authorizationUrl: `${base}oauth/authorize`, tokenUrl, refreshUrl: tokenUrl, scopes: oauthScopes },
        clientCredentials: { tokenUrl, scopes: oauthScopes },
      },
    },
  };
}

const safeMethods = new Set(['GET', 'HEAD']);

/** The requirements (any one of them) that present each credential type, with the scope the route checks. */
function requirementsOf(type: CredentialType, route: Route): Record<string, string[]>[] {
  const scopes = route.scope ? [route.scope] : [];
  switch (type) {
    case 'api_key':
      return [{ bearerAuth: scopes }, { basicAuth: scopes }];
    case 'user_token':
      return [{ userToken: scopes }];
    case 'oauth':
      return [{ oauth2: scopes }];
    case 'session':
      return [safeMethods.has(route.method) ? { sessionCookie: [] } : { sessionCookie: [], xsrfToken: [] }];
  }
}

const allCredentials: readonly CredentialType[] = ['api_key', 'user_token', 'oauth', 'session'];

/** The credentials an operation accepts; none for a public one. */
export function securityOf(route: Route): Record<string, string[]>[] {
  if (route.auth === 'none') return [];
  return (route.credentials ?? allCredentials).flatMap((type) => requirementsOf(type, route));
}

/** Every credential, for the document's default. */
export const anyCredential = [{ bearerAuth: [] }, { basicAuth: [] }, { userToken: [] }, { oauth2: [] }, { sessionCookie: [] }];
