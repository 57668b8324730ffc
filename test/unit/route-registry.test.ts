import { existsSync } from 'node:fs';
import { isKnownScope } from '#core/access/scopes';
import type { Route } from '#core/http/route-types';
import { entryOf } from '#lib/bundling';
import { type LambdaFunctionName, lambdaFunctions, routes as registry } from '#routes';
import { unminifiedBundle } from '../support/unminified-bundles.ts';

const routes: readonly Route[] = registry;

describe('the route registry', () => {
  it('gives every credential route a scope of the catalogue', () => {
    const credentialRoutes = routes.filter((route) => route.auth === 'credential');
    expect(credentialRoutes.length).toBeGreaterThan(0);
    const without = credentialRoutes.filter((route) => !(route.scope && (isKnownScope(route.scope) || route.scope === 'admin:*')));
    expect(without.map((route) => route.operationId)).toEqual([]);
  });

  it('gives public routes no scope', () => {
    expect(routes.filter((route) => route.auth === 'none' && route.scope !== undefined)).toEqual([]);
  });

  it("names each path level's variable once, as API Gateway requires of sibling resources (/webhooks/{id} and /webhooks/{webhook_id} cannot both be deployed)", () => {
    const names = new Map<string, Set<string>>();
    for (const route of routes) {
      const parts = route.path.split('/');
      parts.forEach((part, i) => {
        if (!part.startsWith('{')) return;
        const parent = `${route.mount ?? 'prefix'}:${parts.slice(0, i).join('/')}`;
        names.set(parent, (names.get(parent) ?? new Set()).add(part));
      });
    }
    expect(
      [...names].filter(([, variables]) => variables.size > 1).map(([parent, variables]) => `${parent}/${[...variables].join('|')}`),
    ).toEqual([]);
  });

  it('derives the Lambda functions from the resource folders that own routes', () => {
    expect(new Set(routes.map((route) => route.function))).toEqual(new Set(lambdaFunctions));
    for (const name of lambdaFunctions) {
      expect(existsSync(entryOf(name))).toBe(true);
      expect(existsSync(entryOf(name).replace(/index\.ts$/, 'routes.ts'))).toBe(true);
    }
  });

  // The MCP functions make their tools from every other function's route schemas; no other function holds another's.
  const catalogueHolders = new Set<LambdaFunctionName>(['mcp', 'mcp-protocol']);

  it('builds each function bundle with its own route table and schemas only', async () => {
    for (const name of lambdaFunctions.filter((n) => !catalogueHolders.has(n))) {
      const { inputs } = await unminifiedBundle(name);
      const otherTables = lambdaFunctions.filter((other) => other !== name).map((other) => `functions/${other}/routes.ts`);
      expect(inputs.filter((input) => otherTables.includes(input))).toEqual([]);
      expect(inputs).not.toContain('functions/routes.ts');
      expect(inputs).not.toContain('functions/operation-routes.ts');
    }
  });

  it("builds the MCP functions with every other function's route table, and none of their handlers", async () => {
    for (const name of catalogueHolders) {
      const { inputs } = await unminifiedBundle(name);
      expect(inputs).toContain('functions/operation-routes.ts');
      const operationTables = lambdaFunctions
        .filter((other) => !catalogueHolders.has(other))
        .map((other) => `functions/${other}/routes.ts`);
      expect(operationTables.filter((table) => !inputs.includes(table))).toEqual([]);
      const otherHandlers = lambdaFunctions.filter((other) => other !== name).map((other) => `functions/${other}/handlers.ts`);
      expect(inputs.filter((input) => otherHandlers.includes(input))).toEqual([]);
    }
  });
});
