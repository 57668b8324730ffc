import { handlersFor } from '#core/http/handlers';
import { answerConsent, askConsent } from '#core/oauth/consent';
import { renderConsentPage } from '#core/oauth/consent-page';
import { revokeOAuthToken } from '#core/oauth/revocation';
import { issueToken } from '#core/oauth/server';
import { pageHeaders } from '#core/platform/html';
import type { oauthRoutes } from './routes.ts';

export const oauthHandlers = handlersFor<(typeof oauthRoutes)[number]>()({
  authorizeOAuthClient: async ({ query, principal, url }, deps) => {
    const asked = await askConsent(deps, query, { digest: principal.credential.id, userId: principal.userId });
    if ('redirect' in asked) return { status: 302, headers: { Location: asked.redirect } };
    return { status: 200, html: renderConsentPage(asked.page, url.pathname), headers: pageHeaders };
  },
  answerOAuthConsent: async ({ body, headers }, deps) => ({
    status: 302,
    headers: { Location: await answerConsent(deps, { ticket: body.consent_ticket, decision: body.decision, cookie: headers.cookie }) },
  }),
  issueOAuthToken: async ({ body, headers }, deps) => ({
    status: 200,
    body: await issueToken(deps, body, headers.authorization),
    // RFC 6749 section 5.1; Cache-Control: no-store is on every answer already.
    headers: { Pragma: 'no-cache' },
  }),
  revokeOAuthToken: async ({ body, headers }, deps) => {
    await revokeOAuthToken(deps, body, headers.authorization);
    return { status: 200 };
  },
});
