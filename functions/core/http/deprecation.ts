import { type Config, config } from '#core/platform/config';

/**
 * The headers that announce the deprecation of the version the prefix serves, from
 * configuration: `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <HTTP-date>`
 * (RFC 8594) and a `Link` to the notice with `rel="deprecation"` (and `rel="sunset"` once a
 * sunset is announced). None while the version is not deprecated.
 */
export function deprecationHeaders(settings: Pick<Config, 'API_DEPRECATED_AT' | 'API_SUNSET_AT' | 'API_DEPRECATION_LINK'>) {
  const { API_DEPRECATED_AT: deprecatedAt, API_SUNSET_AT: sunsetAt, API_DEPRECATION_LINK: link } = settings;
  const headers: Record<string, string> = {};
  if (deprecatedAt) headers.Deprecation = `@${Math.floor(deprecatedAt.getTime() / 1000)}`;
  if (sunsetAt) headers.Sunset = sunsetAt.toUTCString();
  const relations = [deprecatedAt && 'deprecation', sunsetAt && 'sunset'].filter(Boolean);
  if (link && relations.length) headers.Link = relations.map((rel) => `<${link}>; rel="${rel}"`).join(', ');
  return headers;
}

let cached: { prefix: string; headers: Record<string, string> } | undefined;

/** The deprecation headers of an answer to `path`: only a path under the versioned prefix carries them. */
export function deprecationHeadersFor(path: string): Record<string, string> {
  cached ??= { prefix: config().API_PREFIX, headers: deprecationHeaders(config()) };
  const { prefix, headers } = cached;
  return path === prefix || path.startsWith(`${prefix}/`) ? headers : {};
}
