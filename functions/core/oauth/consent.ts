import { randomBytes } from 'node:crypto';
import { cookieValue, sessionCookie } from '#core/credentials/credential-header';
import { sessionScopes } from '#core/credentials/session-auth';
import { OAuthRefusal } from '#core/platform/errors';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import { approveAuthorization, type ConsentRequest, deniedRedirect, type OAuthParameters, reviewAuthorization } from './server.ts';

/** Long enough to read a page and decide; a ticket older than this answers nothing. */
const consentLifetimeSeconds = 10 * 60;

export interface ConsentPage extends ConsentRequest {
  /** The one-time ticket the page's form sends back with the answer. */
  ticket: string;
}

/**
 * GET /oauth/authorize for a signed-in session: a request the client must be told is wrong
 * redirects at once; a good one is kept, under a one-time ticket bound to this session, for
 * the consent page to show. Nothing is issued before the user answers.
 */
export async function askConsent(
  deps: Deps,
  query: OAuthParameters,
  session: { digest: string; userId: number },
): Promise<{ redirect: string } | { page: ConsentPage }> {
  const reviewed = await reviewAuthorization(deps, query, { userId: session.userId, scopes: sessionScopes });
  if ('redirect' in reviewed) return reviewed;
  const ticket = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await deps.db.entities.oauthConsent
    .create({
      digest: sha256(ticket),
      sessionDigest: session.digest,
      userId: session.userId,
      clientId: reviewed.consent.client.id,
      request: query,
      redirectUri: reviewed.consent.redirectUri,
      createdAt: now.toISOString(),
      ttl: Math.floor(now.getTime() / 1000) + consentLifetimeSeconds,
    })
    .go();
  return { page: { ...reviewed.consent, ticket } };
}

const spent = () =>
  new OAuthRefusal(400, 'invalid_request', 'This consent page has expired or was answered already: start again from the application.');

/**
 * POST /oauth/authorize, the answer to a consent page: a form cannot send X-XSRF-TOKEN, so the
 * route is public and this checks that the session is live and the one the page was shown to.
 * The ticket only that page carries is the form's anti-forgery token, deleted on condition that
 * it exists so that each page is answered once.
 */
export async function answerConsent(deps: Deps, answer: { ticket: string; decision: 'allow' | 'deny'; cookie?: string }): Promise<string> {
  const sessionId = cookieValue(answer.cookie, sessionCookie);
  if (!sessionId) throw new OAuthRefusal(400, 'invalid_request', 'No session: sign in, then open the authorization link again.');
  const digest = sha256(answer.ticket);
  const now = deps.clock.now();
  const [{ data: consent }, { data: session }] = await Promise.all([
    deps.db.entities.oauthConsent.get({ digest }).go({ consistent: true }),
    deps.db.entities.session.get({ digest: sha256(sessionId) }).go({ consistent: true }),
  ]);
  if (!consent || consent.ttl * 1000 <= now.getTime()) throw spent();
  if (
    !session ||
    Date.parse(session.expiresAt) <= now.getTime() ||
    session.digest !== consent.sessionDigest ||
    session.userId !== consent.userId
  ) {
    throw new OAuthRefusal(
      400,
      'invalid_request',
      'This consent page was shown to another session: sign in as that user, and open the authorization link again.',
    );
  }
  try {
    await deps.db.entities.oauthConsent.remove({ digest }).go();
  } catch (error) {
    if (isConditionFailure(error)) throw spent();
    throw error;
  }
  const { request } = consent;
  if (answer.decision === 'deny') return deniedRedirect(consent.redirectUri, request.state);
  return approveAuthorization(deps, request, { userId: consent.userId, scopes: sessionScopes });
}
