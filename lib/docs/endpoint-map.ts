import type ts from 'typescript';
import { documentedPath, type Route } from '#core/http/route-types';
import { routes } from '#routes';
import { codeOf, pathOf, type Reach } from './code-walk.ts';
import { type Wiring, wiringOf } from './function-wiring.ts';
import { markdownTable } from './markdown-table.ts';
import { registryWalks, testFiles, testsOf } from './test-mentions.ts';

/** The registry's own file: the walk stops there as at the route tables it composes. */
const registryFile = 'functions/routes.ts';

/** A link from docs/endpoints.md to a file of the repository, named `text`. */
const link = (path: string, text = path) => `[${text}](../${path})`;
const coreLink = (path: string) => link(path, path.replace('functions/core/', '').replace(/\.ts$/, ''));
const entityLink = (path: string) => link(path, path.replace(/^.*\//, '').replace(/\.ts$/, ''));
const testLink = (path: string) => link(path, path.replace('test/', '').replace(/\.test\.ts$/, ''));
const fileLink = (path: string, folder: string) =>
  link(path, path.startsWith(folder) ? path.slice(folder.length) : path.replace('functions/', '../'));

/** The operations a handler runs in its turn, which the walk does not follow into: their own rows say what they reach. */
function operationsRun(reach: Reach): string[] {
  if (reach.operations.size) return [`runs ${[...reach.operations].map((id) => `\`${id}\``).join(', ')} (their rows)`];
  return reach.runsOperations ? ['runs the operation its request names (that operation’s row)'] : [];
}

/** A cell of several parts, or a dash for none. */
const cell = (parts: readonly string[], separator = ', ') => parts.filter(Boolean).join(separator) || '—';

/**
 * The map of docs/endpoints.md: for every operation of the registry, where its route,
 * handler, domain code, entities and tests are, all derived from the code (the TypeScript
 * checker follows each handler's references), so that the map cannot drift from it
 * (test/build/endpoint-map.test.ts compares them).
 */
export function endpointMap(): string {
  const all = routes as readonly Route[];
  const functions = [...new Set(all.map((route) => route.function))];
  const code = codeOf(functions.map((name) => `functions/${name}/definition.ts`));
  const wirings = new Map(functions.map((name) => [name, wiringOf(code, name)]));
  const tableFiles = new Set([registryFile, ...[...wirings.values()].map((wiring) => wiring.tableFile)]);
  const handlerNodes = new Map<ts.Node, string>(
    [...wirings.values()].flatMap((wiring) => [...wiring.handlers].map(([id, node]) => [node, id] as const)),
  );
  const files = testFiles();
  const tests = testsOf(all, files);

  const rowOf = (route: Route, wiring: Wiring) => {
    const handler = wiring.handlers.get(route.operationId) ?? wiring.serve;
    const entry = wiring.entries.get(route.operationId);
    if (!handler || !entry) throw new Error(`${route.operationId}: no ${handler ? 'route table entry' : 'handler'} in ${wiring.folder}`);
    const reach = code.walk([handler], { intoCore: true, handlers: handlerNodes, stopAt: (path) => tableFiles.has(path) });
    const schemas = code.walk(entry, { intoCore: false });
    const handlerFile = pathOf(handler.getSourceFile());
    const helpers = [...reach.helpers].filter((path) => path !== handlerFile).sort();
    const { files: named, more } = tests.get(route)!;
    const ran = operationsRun(reach);
    return [
      `\`${route.method} ${route.mount === 'root' ? '{base_url}' : ''}${documentedPath(route.path)}\` \`${route.operationId}\``,
      [
        `${fileLink(handlerFile, wiring.folder)} \`${handler.name?.getText()}\``,
        ...(helpers.length ? [`with ${helpers.map((path) => fileLink(path, wiring.folder)).join(', ')}`] : []),
      ].join(' '),
      cell([...[...schemas.coreModules].sort().map(coreLink), ...[...schemas.helpers].sort().map((path) => fileLink(path, wiring.folder))]),
      cell([[...reach.coreModules].sort().map(coreLink).join(', '), ...ran], '; '),
      cell([
        ...[...reach.entities].sort().map(entityLink),
        ...(reach.rawTable ? ['the table itself'] : []),
        ...(ran.length ? ['those of the operations it runs'] : []),
      ]),
      named.length ? [...named.map(testLink), ...(more ? [`and ${more} more`] : [])].join(', ') : 'none that names it',
    ];
  };

  const sections = functions.map((name) => {
    const wiring = wirings.get(name)!;
    return [
      `### ${name}`,
      '',
      `${link(wiring.folder)}: its routes in ${fileLink(wiring.tableFile, wiring.folder)}, wired to their handlers in ${link(`${wiring.folder}definition.ts`, 'definition.ts')}.`,
      '',
      markdownTable(
        ['operation', 'handler', 'schemas', 'domain modules', 'entities', 'tests'],
        all.filter((route) => route.function === name).map((route) => rowOf(route, wiring)),
      ),
    ].join('\n');
  });
  const walks = registryWalks(files).map(testLink).join(', ');
  return [
    `Tests that read the registry, and so cover every route (or every route of a kind) without naming it: ${walks}.`,
    ...sections,
  ].join('\n\n');
}
