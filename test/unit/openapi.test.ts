import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { documentedPath, type Route } from '#core/http/route-types';
import { routes } from '#routes';

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
    const document = parse(readFileSync('openapi.yaml', 'utf8'));
    for (const route of routes as readonly Route[]) {
      const operation = document.paths[documentedPath(route.path)]?.[route.method.toLowerCase()];
      expect(operation?.operationId).toBe(route.operationId);
      expect(operation['x-required-scope']).toBe(route.scope);
    }
  });

  it('declares 401, 403 and 429 on every credential route: refused, forbidden and counted', () => {
    const document = parse(readFileSync('openapi.yaml', 'utf8'));
    const undeclared = (routes as readonly Route[])
      .filter((route) => route.auth === 'credential')
      .flatMap((route) => {
        const declared = Object.keys(document.paths[documentedPath(route.path)][route.method.toLowerCase()].responses);
        return ['401', '403', '429'].filter((status) => !declared.includes(status)).map((status) => `${route.operationId} ${status}`);
      });
    expect(undeclared).toEqual([]);
  });
});
