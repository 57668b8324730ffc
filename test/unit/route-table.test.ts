import { handlersFor } from '#core/http/handlers';
import { routeTable } from '#core/http/route-table';
import type { ApiRequest } from '#core/http/types';
import { contextQuery, noContent } from '#core/platform/common-schemas';

/**
 * A table's defaults are checked as `satisfies RouteSpec` checks a route (tsc includes
 * test/): each `@ts-expect-error` below is a wrong route that must keep failing to compile.
 */
const routes = routeTable({ tag: 'Things', auth: 'credential', query: contextQuery }, [
  {
    operationId: 'getThing',
    method: 'GET',
    path: '/things/{id}',
    scope: 'webhooks:read',
    summary: 'A thing',
    responses: { 204: noContent },
  },
  { operationId: 'openThing', method: 'GET', path: '/open', auth: 'none', summary: 'Open', tag: 'Open', responses: { 204: noContent } },
]);
type Routes = (typeof routes)[number];

handlersFor<Routes>()({
  getThing: async () => ({ status: 204 }),
  openThing: async () => ({ status: 204 }),
});

// Each route keeps its literal types, the defaults' included.
// @ts-expect-error the route's own scope, not any scope
'webhooks:write' satisfies (typeof routes)[0]['scope'];
({ workspace_id: 'w1' }) satisfies ApiRequest<(typeof routes)[0]>['query'];
// @ts-expect-error `auth: 'credential'` from the defaults: the handler is given a principal
undefined satisfies ApiRequest<(typeof routes)[0]>['principal'];
undefined satisfies ApiRequest<(typeof routes)[1]>['principal'];

routeTable({ tag: 'Things', auth: 'credential' }, [
  // @ts-expect-error a scope the catalogue lacks
  { operationId: 'a', method: 'GET', path: '/a', scope: 'webhook:read', summary: 'A', responses: { 204: noContent } },
]);
routeTable({ tag: 'Things', auth: 'credential' }, [
  // @ts-expect-error a field no route has
  { operationId: 'a', method: 'GET', path: '/a', scope: 'webhooks:read', allowSuspend: true, summary: 'A', responses: { 204: noContent } },
]);
routeTable({ tag: 'Things', auth: 'none' }, [
  // @ts-expect-error a scope on a public route
  { operationId: 'a', method: 'GET', path: '/a', scope: 'webhooks:read', summary: 'A', responses: { 204: noContent } },
]);
routeTable({ tag: 'Things', auth: 'credential' }, [
  // @ts-expect-error a credential route without its scope
  { operationId: 'a', method: 'GET', path: '/a', summary: 'A', responses: { 204: noContent } },
]);
// @ts-expect-error a default no route has
routeTable({ tags: 'Things', auth: 'credential' }, [
  { operationId: 'a', method: 'GET', path: '/a', scope: 'webhooks:read', summary: 'A', tag: 'Things', responses: { 204: noContent } },
]);

describe('a route table', () => {
  it("gives each route the defaults it does not override, and nothing else: a route's own fields win", () => {
    expect(routes).toEqual([
      {
        tag: 'Things',
        auth: 'credential',
        query: contextQuery,
        operationId: 'getThing',
        method: 'GET',
        path: '/things/{id}',
        scope: 'webhooks:read',
        summary: 'A thing',
        responses: { 204: noContent },
      },
      {
        tag: 'Open',
        auth: 'none',
        query: contextQuery,
        operationId: 'openThing',
        method: 'GET',
        path: '/open',
        summary: 'Open',
        responses: { 204: noContent },
      },
    ]);
  });

  it('adds no field that neither the defaults nor the route give', () => {
    const [route] = routeTable({ tag: 'Things', auth: 'none' }, [
      { operationId: 'a', method: 'GET', path: '/a', summary: 'A', responses: { 204: noContent } },
    ]);
    expect(Object.keys(route).sort()).toEqual(['auth', 'method', 'operationId', 'path', 'responses', 'summary', 'tag']);
  });
});
