import * as z from 'zod/mini';
import { ValidationFailed } from '#core/platform/errors';
import { describe, withMeta } from '#core/platform/schema-meta';
import { claimedHost } from './site-hosts.ts';

/** Domains one workspace may claim per environment: every claim is rewritten in the settings change's transaction (at most 100 items). */
const maxDomainsPerEnvironment = 10;

/** What a site's tracker may count: pageviews, other events, and daily unique sessions. */
export interface PixelFeatures {
  pageviews: boolean;
  events: boolean;
  sessions: boolean;
}

/** A workspace's pixel settings as the table keeps them (`settings.pixel` of the workspace item). */
export interface PixelSettings {
  enabled: boolean;
  features: PixelFeatures;
  sampleRate: number;
  /** Hosts claimed for live data. */
  domains: string[];
  /** Hosts claimed for test data (a staging site): read back with a test key. */
  testDomains: string[];
}

const defaultPixelSettings: PixelSettings = {
  enabled: false,
  features: { pageviews: true, events: true, sessions: true },
  sampleRate: 1,
  domains: [],
  testDomains: [],
};

const domain = z.string().check(
  z.refine((value) => claimedHost(value) !== undefined, {
    message: 'must be a host name such as example.com (no scheme, port or path)',
  }),
);

/** A claimed domain in a path (the admin's release). */
export const pixelDomainParam = describe(domain, 'A host claimed for pixel tracking, e.g. example.com.');

const domainList = (environment: string) =>
  describe(
    z.array(domain).check(z.maxLength(maxDomainsPerEnvironment)),
    `Hosts whose pages report into this workspace's ${environment} data; a host belongs to one workspace and environment at a time (409 otherwise). Compared in lower case, punycode, without port.`,
  );

const features = withMeta(z.object({ pageviews: z.boolean(), events: z.boolean(), sessions: z.boolean() }), {
  id: 'PixelFeatures',
  description: 'What the tracker counts: pageviews, other events, and daily unique sessions.',
});

const sampleRate = describe(
  z.number().check(
    z.gte(0),
    z.lte(1),
    z.refine((rate) => rate === 0 || rate >= 1e-6, { message: 'must be 0, or from 0.000001 to 1' }),
  ),
  'The share of events counted, 0 to 1 (1: every event; at least 0.000001 unless 0).',
);

/** `settings.pixel` as a workspace answers it. */
export const pixelSettingsView = withMeta(
  z.object({
    enabled: z.boolean(),
    features,
    sample_rate: sampleRate,
    domains: domainList('live'),
    test_domains: domainList('test'),
  }),
  {
    id: 'PixelSettings',
    description: 'Pixel tracking of the sites the workspace claims. Defaults: disabled, every feature, sample_rate 1, no domains.',
  },
);

/** What a create or update may send of `settings.pixel`: any field, `features` field by field. */
export const pixelSettingsPatch = z.strictObject({
  enabled: z.optional(z.boolean()),
  features: z.optional(z.strictObject(z.partial(features).shape)),
  sample_rate: z.optional(sampleRate),
  domains: z.optional(domainList('live')),
  test_domains: z.optional(domainList('test')),
});

export type PixelSettingsPatch = z.output<typeof pixelSettingsPatch>;

/** Hosts once each, normalised, in the order given. */
const hostsOf = (domains: readonly string[]) => [...new Set(domains.map((d) => claimedHost(d)!))];

/** The settings after a patch; the hosts normalised (site-hosts.ts), each in one environment only. */
export function patchedPixelSettings(current: PixelSettings | undefined, patch: PixelSettingsPatch): PixelSettings {
  const base = current ?? defaultPixelSettings;
  const patched = {
    enabled: patch.enabled ?? base.enabled,
    features: { ...base.features, ...patch.features },
    sampleRate: patch.sample_rate ?? base.sampleRate,
    domains: patch.domains ? hostsOf(patch.domains) : base.domains,
    testDomains: patch.test_domains ? hostsOf(patch.test_domains) : base.testDomains,
  };
  const both = patched.testDomains.filter((host) => patched.domains.includes(host));
  if (both.length) {
    throw new ValidationFailed({
      'settings.pixel.test_domains': [`must not list a host of domains (a host reports into one environment): ${both.join(', ')}`],
    });
  }
  return patched;
}

export function pixelSettingsViewOf(settings: PixelSettings | undefined): z.output<typeof pixelSettingsView> {
  const { enabled, features, sampleRate, domains, testDomains } = settings ?? defaultPixelSettings;
  return { enabled, features: { ...features }, sample_rate: sampleRate, domains: [...domains], test_domains: [...testDomains] };
}
