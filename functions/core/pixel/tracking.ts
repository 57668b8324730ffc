import { ulid } from 'ulid';
import { config } from '#core/platform/config';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { PixelSiteItem } from '#core/store/items';
import type { TrackBody } from './pixel-schemas.ts';
import { countInRollup, type PixelOwner } from './rollups.ts';
import { hostOf } from './site-hosts.ts';
import { isAutomated, isSpamReferrer } from './traffic-filter.ts';
import { dayOf, reserveTrackRequest, visitorOf } from './visitors.ts';

/** What an unknown, unclaimed or disabled site is told: the same for each, so the answer reveals no claim. */
const disabledConfig = { enabled: false, features: { pageviews: false, events: false, sessions: false }, sample_rate: 0 };

/** The site record of a host: one GetItem. */
async function siteOf(deps: Deps, host: string | undefined): Promise<PixelSiteItem | undefined> {
  if (!host) return undefined;
  const { data } = await deps.db.entities.pixelSite.get({ host }).go(hotPath);
  return data ?? undefined;
}

/** The configuration of the site that asks: by its Origin's host, else its Referer's. */
export async function pixelConfigFor(deps: Deps, asking: { origin?: string; referer?: string }) {
  const site = await siteOf(deps, hostOf(asking.origin) ?? hostOf(asking.referer));
  if (!site?.enabled) return disabledConfig;
  const { pageviews, events, sessions, sampleRate } = site;
  return { enabled: true, features: { pageviews, events, sessions }, sample_rate: sampleRate };
}

/** A tracking request: its body, what the browser said of itself, and the client address (hashed, never kept). */
export interface TrackRequest {
  body: TrackBody;
  /** The Origin header, when a browser sent one. */
  origin?: string;
  userAgentHeader?: string;
  address: string;
}

/**
 * The path a pageview counts under: no query string (personal data hides there), neither
 * the page's nor its hash route's; a hash route (`#/about`, `#!/about`) kept.
 */
function pagePathOf(url: URL): string {
  const hashRoute = /^#!?\//.test(url.hash) ? url.hash.split('?')[0]! : '';
  return `${url.pathname}${hashRoute}`;
}

/** Has this visitor an event today already? A Query of one key (the day's events of a visitor sort together). */
async function seenToday(deps: Deps, owner: PixelOwner, day: string, visitor: string): Promise<boolean> {
  const { data } = await deps.db.entities.pixelEvent.query
    .byVisitorDay(owner)
    .begins({ day, visitor })
    .go({ limit: 1, consistent: true, ...hotPath });
  return data.length > 0;
}

/**
 * The site that counts an event, if any counts it: the `url`'s host, claimed and enabled,
 * the Origin's host when a browser sent one (a page of one site cannot count for another),
 * the event's feature on, and the event sampled in.
 */
async function countingSite(deps: Deps, request: TrackRequest, host: string, random: () => number) {
  if (request.origin !== undefined && hostOf(request.origin) !== host) return undefined;
  const site = await siteOf(deps, host);
  if (!site?.enabled) return undefined;
  if (!(request.body.event === 'pageview' ? site.pageviews : site.events)) return undefined;
  return random() < site.sampleRate ? site : undefined;
}

/**
 * Counts one event of a site's tracker, or answers why not with false (never an error, so
 * that a site's script learns nothing of claims). Its writes: the client address's rate
 * window, the event, and the day's rollup.
 */
export async function track(deps: Deps, request: TrackRequest, random: () => number = Math.random): Promise<boolean> {
  await reserveTrackRequest(deps, request.address);
  const { body } = request;
  const userAgent = body.user_agent ?? request.userAgentHeader ?? '';
  const url = new URL(body.url);
  const host = hostOf(body.url)!;
  const referrerHost = hostOf(body.referrer);
  if (isAutomated(userAgent) || isSpamReferrer(referrerHost)) return false;
  const site = await countingSite(deps, request, host, random);
  if (!site) return false;

  const now = deps.clock.now();
  const day = dayOf(now);
  const owner: PixelOwner = { workspaceId: site.workspaceId, environment: site.environment };
  const visitor = site.sessions ? visitorOf(day, host, request.address, userAgent) : '-';
  const newSession = site.sessions && !(await seenToday(deps, owner, day, visitor));
  const ttl = Math.floor(now.getTime() / 1000) + config().PIXEL_EVENT_RETENTION_DAYS * 86_400;
  const path = pagePathOf(url);
  // A referrer of the site itself is navigation within it, not a referral.
  const referral = referrerHost && referrerHost !== host ? referrerHost : undefined;
  const pageview = body.event === 'pageview';
  await deps.db.entities.pixelEvent
    .create({
      ...owner,
      day,
      visitor,
      id: ulid(now.getTime()),
      name: body.event,
      host,
      path,
      ...(referral ? { referrerHost: referral } : {}),
      ...(body.properties && Object.keys(body.properties).length ? { properties: body.properties } : {}),
      createdAt: now.toISOString(),
      ttl,
    })
    .go({ response: 'none' });
  await countInRollup(deps.db, {
    owner,
    day,
    pageview,
    keys: pageview ? { pages: path, ...(referral ? { referrers: referral } : {}) } : { names: body.event },
    newSession,
    ttl,
  });
  return true;
}
