import { asksForJson } from '#core/http/accept';

describe('asksForJson: a mailed link answers JSON only to a client that asks for it', () => {
  it.each([
    ['a browser navigating', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['curl and fetch by default', '*/*', false],
    ['no Accept at all', undefined, false],
    ['an API client', 'application/json', true],
    ['axios', 'application/json, text/plain, */*', true],
    ['JSON weighted above HTML', 'text/html;q=0.5, application/json', true],
    ['HTML weighted above JSON', 'application/json;q=0.1, TEXT/HTML', false],
    ['both at the same weight', 'application/json, text/html', false],
    ['JSON refused outright', 'application/json;q=0', false],
  ])('%s (%s): %s', (_, accept, json) => {
    expect(asksForJson(accept)).toBe(json);
  });
});
