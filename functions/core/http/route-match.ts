import { type HttpMethod, type RouteSpec, routePath } from './route-types.ts';

/** Every GET route also answers HEAD: the same handler, headers without the body. */
export type ServedMethod = HttpMethod | 'HEAD';

/** The route method that serves a request method. */
export const routeMethodOf = (method: string): string => (method === 'HEAD' ? 'GET' : method);

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

function matchTemplate(template: string, path: string): Record<string, string> | undefined {
  const want = segmentsOf(template);
  const have = segmentsOf(path);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const h = have[i]!;
    if (w.startsWith('{') && w.endsWith('}')) params[w.slice(1, -1)] = h;
    else if (w !== h) return undefined;
  }
  return params;
}

/** Literal segments outrank parameters, as in API Gateway's resource matching. */
const literalCount = (template: string) => segmentsOf(template).filter((s) => !s.startsWith('{')).length;

/**
 * Finds what a path (after the stage) means against the route table: the resource template
 * it matches (the most literal one), the route for the method if there is one, and the
 * methods allowed there.
 */
export function matchRoute<R extends RouteSpec>(routes: readonly R[], method: string, path: string, prefix: string) {
  let best: { template: string; params: Record<string, string> } | undefined;
  for (const route of routes) {
    const template = routePath(route, prefix);
    const params = matchTemplate(template, path);
    if (params && (!best || literalCount(template) > literalCount(best.template))) best = { template, params };
  }
  if (!best) return { kind: 'no-resource' as const };
  const onResource = routes.filter((r) => routePath(r, prefix) === best.template);
  const route = onResource.find((r) => r.method === routeMethodOf(method));
  const allowed = onResource.flatMap((r): ServedMethod[] => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]));
  if (!route) return { kind: 'wrong-method' as const, template: best.template, allowed };
  return { kind: 'match' as const, route, params: best.params, template: best.template };
}
