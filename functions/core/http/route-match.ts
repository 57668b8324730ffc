import { type HttpMethod, type RouteSpec, routePath } from './route-types.ts';

/** Every GET route also answers HEAD: the same handler, headers without the body. */
export type ServedMethod = HttpMethod | 'HEAD';

/** The route method that serves a request method. */
export const routeMethodOf = (method: string): string => (method === 'HEAD' ? 'GET' : method);

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/** One resource of the table, as API Gateway has it: its path template and the routes on it. */
interface Resource<R extends RouteSpec> {
  template: string;
  /** Each segment: a literal, or the name of a path parameter; a last `{name+}` takes the rest of the path, slashes and all. */
  segments: ({ literal: string } | { param: string; greedy?: true })[];
  /** Literal segments outrank parameters, as in API Gateway's resource matching. */
  literals: number;
  routes: R[];
  allowed: ServedMethod[];
}

function segmentOf(segment: string): Resource<RouteSpec>['segments'][number] {
  if (!(segment.startsWith('{') && segment.endsWith('}'))) return { literal: segment };
  const name = segment.slice(1, -1);
  return name.endsWith('+') ? { param: name.slice(0, -1), greedy: true } : { param: name };
}

function resourcesOf<R extends RouteSpec>(routes: readonly R[], prefix: string): Resource<R>[] {
  const byTemplate = new Map<string, Resource<R>>();
  for (const route of routes) {
    const template = routePath(route, prefix);
    let resource = byTemplate.get(template);
    if (!resource) {
      const segments = segmentsOf(template).map(segmentOf);
      resource = { template, segments, literals: segments.filter((s) => 'literal' in s).length, routes: [], allowed: [] };
      byTemplate.set(template, resource);
    }
    resource.routes.push(route);
    resource.allowed.push(...(route.method === 'GET' ? (['GET', 'HEAD'] as const) : [route.method]));
  }
  // The most literal resource first, so that the first match is the one API Gateway takes.
  return [...byTemplate.values()].sort((a, b) => b.literals - a.literals);
}

/** The path after its first `count` segments, as sent: a greedy parameter's value keeps even its empty segments (`tenant://`). */
const restOf = (path: string, count: number) => path.replace(new RegExp(`^(/+[^/]+){${count}}/`), '');

function paramsOf<R extends RouteSpec>(resource: Resource<R>, path: string, have: readonly string[]): Record<string, string> | undefined {
  const last = resource.segments.at(-1);
  const greedy = last && 'param' in last && last.greedy;
  if (greedy ? have.length < resource.segments.length : resource.segments.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of resource.segments.entries()) {
    if ('param' in segment) params[segment.param] = segment.greedy ? restOf(path, i) : have[i]!;
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
    const params = paramsOf(resource, path, have);
    if (!params) continue;
    const { template, allowed, routes: here } = resource;
    const route = here.find((r) => r.method === routeMethodOf(method));
    if (!route) return { kind: 'wrong-method' as const, template, allowed, routes: here };
    return { kind: 'match' as const, route, params, template };
  }
  return { kind: 'no-resource' as const };
}
