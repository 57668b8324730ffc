import { readFileSync } from 'node:fs';
import { endpointTable } from '#lib/docs/endpoint-table';

describe('the endpoint table', () => {
  it('is the README’s table, word for word', () => {
    const readme = readFileSync('README.md', 'utf8');
    const table = /<!-- endpoints:[^\n]*-->\n([\s\S]*?)\n<!-- \/endpoints -->/.exec(readme)?.[1];
    expect(table).toBe(endpointTable());
  });
});
