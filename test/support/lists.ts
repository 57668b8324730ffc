import type { Route } from '#core/http/route-types';
import { listPage } from '#core/lists/list-page';
import type { ListSource } from '#core/lists/list-source';
import { routes } from '#routes';

/**
 * A list endpoint's answer, computed in process: the route's own query schema and list
 * spec over a domain list source, as the handler does, for a query string as a client
 * would send it.
 */
export function listVia<Row, Item extends Record<string, unknown>>(
  operationId: (typeof routes)[number]['operationId'],
  source: ListSource<Row, Item>,
  query = '',
) {
  const route = routes.find((r) => r.operationId === operationId) as Route | undefined;
  if (!route?.list || !route.query) throw new Error(`${operationId} is not a list route`);
  const url = new URL(`https://api.test/api/v1/list?${query}`);
  return listPage(source, route.query.parse(Object.fromEntries(url.searchParams)) as Parameters<typeof listPage>[1], route.list, url);
}
