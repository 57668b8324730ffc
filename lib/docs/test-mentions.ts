import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Route } from '#core/http/route-types';
import { toolNameOf } from '#core/mcp/tool-catalogue';

const root = new URL('../../', import.meta.url);

/** Every test file, by its path from the repository's root, with its text. */
export function testFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const read = (folder: string) => {
    for (const entry of readdirSync(new URL(folder, root), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) read(path);
      else if (path.endsWith('.test.ts')) files.set(path, readFileSync(new URL(path, root), 'utf8'));
    }
  };
  read('test');
  return files;
}

const escaped = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** A path parameter as a test writes it: a value, a template's `${…}` (one level of braces and quotes inside), or `{name}` as documented. */
const parameter = String.raw`(?:\$\{(?:[^{}'"\x60]|\{[^{}]*\}|'[^']*'|"[^"]*")*\}|\{\w+\}|[^/?#'"\x60\s$]+)`;

/** What may come before the route's path in the same string: an origin or a template's base, `{base_url}`, the versioned prefix. */
const before = String.raw`(?:[a-z]+://[^/'"\x60\s]*|\$\{[^}]*\}|\{base_url\})?(?:/[a-z]+/v\d+)?`;

/**
 * A call of the route: its method as a string (`'POST', '/api-keys'`) or a client's method
 * (`.POST('/api-keys')`), then its path in a string literal (a helper's argument, as in
 * `root('/login')`, too), to the literal's end or its query. A GET's HEAD counts as the GET.
 */
function callPattern(route: Route): RegExp {
  const methods = route.method === 'GET' ? 'GET|HEAD' : route.method;
  const path = route.path
    .split(/(\{\w+\+?\})/)
    .map((part, i) => (i % 2 ? parameter : escaped(part)))
    .join('');
  return new RegExp(
    String.raw`(?:['"\x60](?:${methods})['"\x60]\s*,|\.(?:${methods})\()\s*(?:\w+\()?['"\x60]${before}${path}(?=['"\x60?#])`,
    'g',
  );
}

/** The operation named in a string: its id (dispatch's tests) or its MCP tool name. */
const namePattern = (route: Route) => new RegExp(`['"\`](?:${route.operationId}|${toolNameOf(route.operationId)})['"\`]`, 'g');

/** How many test files a cell lists; the rest are counted. */
const shown = 8;

/** The test files that call a route or name its operation: the most telling first, then how many more there are. */
export interface RouteTests {
  files: string[];
  more: number;
}

/**
 * The test files of each route: first those named after its function (`e2e/api-keys`), then
 * by how much of the file is about it (its mentions squared over the file's mentions of
 * every route), so that a file about the route comes before one that calls it often among
 * much else to set up its own subject.
 */
export function testsOf(routes: readonly Route[], files: ReadonlyMap<string, string>): Map<Route, RouteTests> {
  const counts = new Map(
    routes.map((route) => {
      const patterns = [callPattern(route), namePattern(route)];
      return [route, new Map([...files].map(([path, text]) => [path, patterns.reduce((sum, p) => sum + (text.match(p)?.length ?? 0), 0)]))];
    }),
  );
  const totals = new Map([...files.keys()].map((path) => [path, routes.reduce((sum, route) => sum + counts.get(route)!.get(path)!, 0)]));
  return new Map(
    routes.map((route) => {
      const namedAfter = (path: string) => (basename(path, '.test.ts') === route.function ? 1 : 0);
      const score = (path: string, count: number) => count ** 2 / totals.get(path)!;
      const ranked = [...counts.get(route)!]
        .filter(([, count]) => count > 0)
        .sort(([a, x], [b, y]) => namedAfter(b) - namedAfter(a) || score(b, y) - score(a, x) || a.localeCompare(b))
        .map(([path]) => path);
      return [route, { files: ranked.slice(0, shown), more: Math.max(0, ranked.length - shown) }];
    }),
  );
}

/** The test files that import the route registry: walks over every route (or every route of a kind) that name none. */
export function registryWalks(files: ReadonlyMap<string, string>): string[] {
  const importsRegistry = /from '(?:#routes|(?:\.\.\/)+functions\/(?:routes|definitions)\.ts)'/;
  return [...files]
    .filter(([, text]) => importsRegistry.test(text))
    .map(([path]) => path)
    .sort();
}
