import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentedPath, type Route } from '#core/http/route-types';
import { routes } from '#routes';
import { openapiDocument } from '../support/openapi-document.ts';

const runCheck = (file: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'bin/openapi.ts', '--check', file], { encoding: 'utf8' });

describe('openapi.yaml', () => {
  it('is in sync with the route table and lints clean (redocly recommended-strict)', () => {
    const result = runCheck('openapi.yaml');
    expect(result.stderr.split('\n').filter((l) => l && !l.includes('nodedir'))).toEqual([]);
    expect(result.status).toBe(0);
  });

  it('fails the check when the committed file drifts', () => {
    const drifted = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.yaml');
    writeFileSync(drifted, readFileSync('openapi.yaml', 'utf8').replace('listWorkspaces', 'listEverything'));
    const result = runCheck(drifted);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('out of date');
  });

  it('documents every route with its scope', () => {
    const document = openapiDocument();
    for (const route of routes as readonly Route[]) {
      const operation = document.paths[documentedPath(route.path)]?.[route.method.toLowerCase()];
      expect(operation?.operationId).toBe(route.operationId);
      expect(operation['x-required-scope']).toBe(route.scope);
    }
  });

  it('declares 401, 403 and 429 on every credential route: refused, forbidden and counted', () => {
    const document = openapiDocument();
    const undeclared = (routes as readonly Route[])
      .filter((route) => route.auth === 'credential')
      .flatMap((route) => {
        const declared = Object.keys(document.paths[documentedPath(route.path)][route.method.toLowerCase()].responses);
        return ['401', '403', '429'].filter((status) => !declared.includes(status)).map((status) => `${route.operationId} ${status}`);
      });
    expect(undeclared).toEqual([]);
  });

  it("lists in each operation's security exactly the credentials its route accepts, the session's unsafe methods with X-XSRF-TOKEN", () => {
    const document = openapiDocument();
    const credentialOf: Record<string, string> = {
      bearerAuth: 'api_key',
      basicAuth: 'api_key',
      userToken: 'user_token',
      oauth2: 'oauth',
      sessionCookie: 'session',
    };
    for (const route of routes as readonly Route[]) {
      const security: Record<string, string[]>[] = document.paths[documentedPath(route.path)][route.method.toLowerCase()].security;
      const accepted = route.auth === 'none' ? [] : (route.credentials ?? ['api_key', 'user_token', 'oauth', 'session']);
      expect([...new Set(security.map((requirement) => credentialOf[Object.keys(requirement)[0]!]))].sort()).toEqual([...accepted].sort());
      const session = security.find((requirement) => 'sessionCookie' in requirement);
      if (session) expect(Object.keys(session).sort()).toEqual(route.method === 'GET' ? ['sessionCookie'] : ['sessionCookie', 'xsrfToken']);
      for (const requirement of security.filter((r) => !('sessionCookie' in r)))
        expect(Object.values(requirement)[0]).toEqual([route.scope]);
    }
  });

  it('declares numbers as numbers: no parameter is a string of digits, none a string of true or false', () => {
    const document = openapiDocument();
    const parameters = Object.values(document.paths as Record<string, Record<string, { parameters?: { name: string; schema?: any }[] }>>)
      .flatMap((item) => Object.values(item))
      .flatMap((operation) => operation.parameters ?? []);
    const textual = parameters.filter(
      ({ schema }) => schema?.type === 'string' && (/^\^\\d/.test(schema.pattern ?? '') || schema.enum?.includes('true')),
    );
    expect(textual.map(({ name }) => name)).toEqual([]);
    const perPage = parameters.find(({ name }) => name === 'per_page')!.schema;
    expect(perPage).toEqual({ type: 'integer', minimum: 1, maximum: 999999999, default: 25 });
  });
});
