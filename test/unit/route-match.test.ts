import { matchRoute } from '#core/http/route-match';
import { routePath } from '#core/http/route-types';
import { routes } from '#routes';

describe('route matching against the route table', () => {
  it('finds the route and its path parameters', () => {
    const found = matchRoute(routes, 'GET', '/api/v1/workspaces/wks_1', '/api/v1');
    expect(found).toMatchObject({ kind: 'match', template: '/api/v1/workspaces/{id}', params: { id: 'wks_1' } });
  });

  it('gives a greedy {uri+} the rest of the path as sent, slashes and empty segments included', () => {
    const found = matchRoute(routes, 'GET', '/api/v1/mcp/resources/tenant://workspaces/wks_1/posts/post_1', '/api/v1');
    expect(found).toMatchObject({ kind: 'match', params: { uri: 'tenant://workspaces/wks_1/posts/post_1' } });
    const encoded = matchRoute(routes, 'GET', '/api/v1/mcp/resources/docs%3A%2F%2Fopenapi.yaml', '/api/v1');
    expect(encoded).toMatchObject({ kind: 'match', params: { uri: 'docs%3A%2F%2Fopenapi.yaml' } });
    expect(matchRoute(routes, 'GET', '/api/v1/mcp/resources', '/api/v1').kind).toBe('no-resource');
  });

  it('lists the allowed methods of a known path called with another method', () => {
    const found = matchRoute(routes, 'PUT', '/api/v1/workspaces/wks_1', '/api/v1');
    expect(found).toMatchObject({ kind: 'wrong-method', template: '/api/v1/workspaces/{id}', allowed: ['GET', 'HEAD', 'PATCH', 'DELETE'] });
    // With the routes there, whose CORS policy a preflight follows.
    expect(found.kind === 'wrong-method' && found.routes.map((route) => route.operationId)).toEqual([
      'getWorkspace',
      'updateWorkspace',
      'deleteWorkspace',
    ]);
  });

  it('serves HEAD with the GET route of the path', () => {
    const found = matchRoute(routes, 'HEAD', '/api/v1/workspaces/wks_1', '/api/v1');
    expect(found).toMatchObject({ kind: 'match', route: { operationId: 'getWorkspace' } });
    expect(matchRoute(routes, 'HEAD', '/api/v1/api-keys/key_1/rotate', '/api/v1').kind).toBe('wrong-method');
  });

  it('knows no resource for unknown or deeper paths', () => {
    expect(matchRoute(routes, 'GET', '/api/v1/nothing', '/api/v1').kind).toBe('no-resource');
    expect(matchRoute(routes, 'GET', '/api/v1/workspaces/wks_1/extra', '/api/v1').kind).toBe('no-resource');
  });

  it('declares each method and path once', () => {
    const keys = routes.map((r) => `${r.method} ${routePath(r, '/api/v1')}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = routes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
