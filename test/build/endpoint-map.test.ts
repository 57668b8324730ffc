import { endpointMap } from '#lib/docs/endpoint-map';
import { generatedSection } from '#lib/docs/generated-section';

describe('the endpoint map', () => {
  it('is docs/endpoints.md’s map, word for word (npm run docs rewrites it)', () => {
    expect(generatedSection('docs/endpoints.md', 'endpoint-map')).toBe(endpointMap());
  });
});
