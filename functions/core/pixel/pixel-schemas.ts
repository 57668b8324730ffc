import * as z from 'zod/mini';
import { contextQuery } from '#core/platform/common-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';
import { pixelSettingsView } from './pixel-settings.ts';
import { hostOf } from './site-hosts.ts';

/** The longest URL or referrer a tracker sends (browsers' practical limit is about this). */
const maxUrlLength = 2048;
/** `properties`: flat and small, so that an event item stays a few hundred bytes. */
const maxProperties = 20;

/** What a site's tracker needs to know: the spec's pixel configuration. */
export const pixelConfig = withMeta(z.pick(pixelSettingsView, { enabled: true, features: true, sample_rate: true }), {
  id: 'PixelConfiguration',
  description:
    'The tracking configuration of the site that asks (its Origin, else its Referer): disabled, with every feature off, for a site no workspace tracks.',
});

const eventName = z
  .string()
  .check(z.minLength(1), z.maxLength(64), z.regex(/^[\p{L}\p{N} _.:/-]+$/u, 'must be letters, digits, spaces and _ . : / -'));

const pageUrl = z.string().check(
  z.maxLength(maxUrlLength),
  z.refine((url) => hostOf(url) !== undefined, { message: 'must be an absolute http(s) URL' }),
);

/** A number DynamoDB keeps exactly as sent: within JavaScript's safe integers, and none too small to store (1e-130). */
const storableNumber = z.number().check(
  z.refine((n) => n === 0 || (Math.abs(n) <= Number.MAX_SAFE_INTEGER && Math.abs(n) >= 1e-130), {
    message: 'must be a number from -9007199254740991 to 9007199254740991 (send a larger one as a string)',
  }),
);

const propertyValue = z.union([z.string().check(z.maxLength(256)), storableNumber, z.boolean(), z.null()]);

/** A property's name: not one every JavaScript object already has (`constructor`, `__proto__` ...), which no store takes as data. */
const propertyName = z.string().check(
  z.minLength(1),
  z.maxLength(64),
  z.refine((name) => !(name in Object.prototype), {
    message: 'must not be a name every object has (constructor, __proto__, toString ...)',
  }),
);

export const trackBody = z.strictObject({
  event: describe(eventName, '`pageview` counts a pageview; any other name is an event (the snippet sends `404`, `outbound`, `download`).'),
  url: describe(pageUrl, "The page's URL: its host names the site, and must be the Origin's host when a browser sends one."),
  referrer: z.optional(
    describe(z.string().check(z.maxLength(maxUrlLength)), 'document.referrer: empty, or the URL the visitor came from.'),
  ),
  user_agent: z.optional(describe(z.string().check(z.maxLength(512)), 'navigator.userAgent; the User-Agent header when absent.')),
  properties: z.optional(
    describe(
      z.record(propertyName, propertyValue).check(
        z.refine((properties) => Object.keys(properties).length <= maxProperties, {
          message: `must have at most ${maxProperties} properties`,
        }),
      ),
      `Flat: at most ${maxProperties} names, each a string (up to 256 characters), number, boolean or null.`,
    ),
  ),
});

export type TrackBody = z.output<typeof trackBody>;

export const trackAnswer = z.object({
  tracked: describe(
    z.boolean(),
    'False for a site no workspace tracks (or not this event), for bots and spam, and for events sampled out.',
  ),
});

const isoDay = z.iso.date();

/** How many days one stats request may ask for: a quarter and a bit. */
export const maxStatsDays = 93;

export const statsQuery = z.extend(contextQuery, {
  from: z.optional(describe(isoDay, 'First UTC day, YYYY-MM-DD; default six days before `to`.')),
  to: z.optional(describe(isoDay, 'Last UTC day, YYYY-MM-DD; default today.')),
});

const count = z.int().check(z.gte(0));

const dayCounts = {
  pageviews: count,
  events: describe(count, 'Events other than pageviews.'),
  daily_unique_sessions: describe(count, 'Visitors seen that day (address and user agent hashed with a key that changes daily).'),
};

const ranked = (key: string, noun: string) => z.array(z.object({ [key]: z.string(), [noun]: count }));

export const pixelStats = withMeta(
  z.object({
    from: isoDay,
    to: isoDay,
    totals: z.object({
      pageviews: count,
      events: count,
      sum_of_daily_unique_sessions: describe(count, 'Daily uniques added up: a visitor seen on two days counts twice.'),
    }),
    days: z.array(z.object({ date: isoDay, ...dayCounts })),
    top_pages: describe(ranked('path', 'pageviews'), 'Ten at most; past 100 paths a day, the rest count as `(other)`.'),
    top_referrers: describe(ranked('referrer', 'pageviews'), 'Referring hosts, ten at most; past 50 a day, the rest count as `(other)`.'),
    top_events: describe(ranked('name', 'count'), 'Ten at most; past 50 names a day, the rest count as `(other)`.'),
  }),
  { id: 'PixelStats', description: 'Counted events of the sites of the workspace, in the credential’s environment, from daily rollups.' },
);
