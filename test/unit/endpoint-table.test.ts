import { endpointTable } from '#lib/docs/endpoint-table';
import { generatedSection } from '#lib/docs/generated-section';

describe('the endpoint table', () => {
  it('is docs/endpoints.md’s table, word for word (npm run docs rewrites it)', () => {
    expect(generatedSection('docs/endpoints.md', 'endpoints')).toBe(endpointTable());
  });
});
