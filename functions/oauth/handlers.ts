import type { HandlersFor } from '#core/http/types';
import { authorize, issueToken } from '#core/oauth/server';
import type { oauthRoutes } from './routes.ts';

export const oauthHandlers: HandlersFor<(typeof oauthRoutes)[number]> = {
  authorizeOAuthClient: async ({ query, principal, workspaceId }, deps) => ({
    status: 302,
    headers: { Location: await authorize(deps, query, { userId: principal.userId, workspaceId, scopes: principal.scopes }) },
  }),
  issueOAuthToken: async ({ body, headers }, deps) => ({
    status: 200,
    body: await issueToken(deps, body, headers.authorization),
    // RFC 6749 section 5.1; Cache-Control: no-store is on every answer already.
    headers: { Pragma: 'no-cache' },
  }),
};
