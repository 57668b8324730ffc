import { deprecationHeaders } from '#core/http/deprecation';
import { parseConfig } from '#core/platform/config';

const settings = (env: Record<string, string>) => deprecationHeaders(parseConfig(env));

describe('the deprecation headers of the version', () => {
  it('are none while the version is not deprecated, a notice URL alone included', () => {
    expect(settings({})).toEqual({});
    expect(settings({ API_DEPRECATION_LINK: 'https://example.com/v1' })).toEqual({});
  });

  it('give Deprecation as @<unix seconds> (RFC 9745), Sunset as an HTTP-date (RFC 8594), and the notice as Link', () => {
    expect(settings({ API_DEPRECATED_AT: '2026-06-01T12:00:00+02:00', API_DEPRECATION_LINK: 'https://example.com/v1' })).toEqual({
      Deprecation: `@${Date.UTC(2026, 5, 1, 10) / 1000}`,
      Link: '<https://example.com/v1>; rel="deprecation"',
    });
    expect(settings({ API_SUNSET_AT: '2027-01-31' })).toEqual({ Sunset: 'Sun, 31 Jan 2027 00:00:00 GMT' });
  });

  it('refuse a date that is not ISO 8601 at start, naming the variable', () => {
    expect(() => parseConfig({ API_DEPRECATED_AT: 'next June' })).toThrow(/API_DEPRECATED_AT must be an ISO 8601 date/);
    expect(() => parseConfig({ API_SUNSET_AT: '2027-02-30T25:00:00Z' })).toThrow(/API_SUNSET_AT/);
    expect(() => parseConfig({ API_DEPRECATION_LINK: 'not a url' })).toThrow(/API_DEPRECATION_LINK/);
  });
});
