import { type HttpMethod, type RouteSpec, routePath } from './route-types.ts';

/** Every GET route also answers HEAD: the same handler, headers without the body. */
export type ServedMethod = HttpMethod | 'HEAD';

/** The route method that serves a request method. */
export const routeMethodOf = (method: string): string => (method === 'HEAD' ? 'GET' : method);

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/** One resource of the table, as API Gateway has it: its path template and the routes on it. */
interface Resource<R extends RouteSpec> {
  template: string;
  /** Each segment: a literal, or the name of a path parameter. */
  segments: ({ literal: string } | { param: string })[];
  /** Literal segments outrank parameters, as in API Gateway's resource matching. */
  literals: number;
  routes: R[];
  allowed: ServedMethod[];
}

function resourcesOf<R extends RouteSpec>(routes: readonly R[], prefix: string): Resource<R>[] {
  const byTemplate = new Map<string, Resource<R>>();
  for (const route of routes) {
    const template = routePath(route, prefix);
    let resource = byTemplate.get(template);
    if (!resource) {
      const segments = segmentsOf(template).map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s }));
      resource = { template, segments, literals: segments.filter((s) => 'literal' in s).length, routes: [], allowed: [] };
      byTemplate.set(template, resource);
    }
    resource.routes.push(route);
    resource.allowed.push(...(route.method === 'GET' ? (['GET', 'HEAD'] as const) : [route.method]));
  }
  // The most literal resource first, so that the first match is the one API Gateway takes.
  return [...byTemplate.values()].sort((a, b) => b.literals - a.literals);
}

function paramsOf<R extends RouteSpec>(resource: Resource<R>, have: readonly string[]): Record<string, string> | undefined {
  if (resource.segments.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < have.length; i++) {
    const segment = resource.segments[i]!;
    if ('param' in segment) params[segment.param] = have[i]!;
    else if (segment.literal !== have[i]) return undefined;
  }
  return params;
}

/** Each table's resources, read once: every request matches against them. */
const compiled = new WeakMap<readonly RouteSpec[], Map<string, Resource<RouteSpec>[]>>();

function compiledResources<R extends RouteSpec>(routes: readonly R[], prefix: string): Resource<R>[] {
  let byPrefix = compiled.get(routes);
  if (!byPrefix) compiled.set(routes, (byPrefix = new Map()));
  let resources = byPrefix.get(prefix);
  if (!resources) byPrefix.set(prefix, (resources = resourcesOf(routes, prefix)));
  return resources as Resource<R>[];
}

/**
 * Finds what a path (after the stage) means against the route table: the resource template
 * it matches (the most literal one), the route for the method if there is one, and the
 * methods allowed there.
 */
export function matchRoute<R extends RouteSpec>(routes: readonly R[], method: string, path: string, prefix: string) {
  const have = segmentsOf(path);
  for (const resource of compiledResources(routes, prefix)) {
    const params = paramsOf(resource, have);
    if (!params) continue;
    const { template, allowed, routes: here } = resource;
    const route = here.find((r) => r.method === routeMethodOf(method));
    if (!route) return { kind: 'wrong-method' as const, template, allowed, routes: here };
    return { kind: 'match' as const, route, params, template };
  }
  return { kind: 'no-resource' as const };
}
