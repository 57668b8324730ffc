import { readFileSync } from 'node:fs';
import { errorCatalogue } from '#core/platform/error-catalogue';

/** docs/errors.md, the error guide, names every code of the catalogue with its status: a new code fails here until it is written up. */
describe('the error guide', () => {
  const guide = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = guide.split('\n').filter((line) => line.startsWith('| '));

  it.each(Object.entries(errorCatalogue).filter(([, entry]) => !entry.oauth))('lists %s at its status', (code, entry) => {
    expect(rows.some((row) => row.includes(`\`${code}\``) && row.startsWith(`| ${entry.status}`))).toBe(true);
  });

  it('lists the OAuth refusals', () => {
    expect(rows.some((row) => row.includes('`INVALID_REQUEST`') && row.includes("RFC 6749's code"))).toBe(true);
  });
});
