import { matchRoute } from '#core/route-match';
import { routes } from '#routes';

describe('route matching against the route table', () => {
  it('finds the route and its path parameters', () => {
    const found = matchRoute(routes, 'GET', '/workspaces/wks_1');
    expect(found).toMatchObject({ kind: 'match', template: '/workspaces/{id}', params: { id: 'wks_1' } });
  });

  it('lists the allowed methods of a known path called with another method', () => {
    const found = matchRoute(routes, 'PUT', '/workspaces/wks_1');
    expect(found).toEqual({ kind: 'wrong-method', template: '/workspaces/{id}', allowed: ['GET', 'PATCH', 'DELETE'] });
  });

  it('knows no resource for unknown or deeper paths', () => {
    expect(matchRoute(routes, 'GET', '/nothing').kind).toBe('no-resource');
    expect(matchRoute(routes, 'GET', '/workspaces/wks_1/extra').kind).toBe('no-resource');
  });

  it('declares each method and path once', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = routes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
