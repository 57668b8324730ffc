import { existsSync } from 'node:fs';
import { isKnownScope } from '#core/access/scopes';
import type { Route } from '#core/http/route-types';
import { entryOf } from '#lib/bundling';
import { lambdaFunctions, routes as registry } from '#routes';

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
});
