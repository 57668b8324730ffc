import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApi } from '../support/local-api.ts';

/**
 * A client generated from openapi.yaml as a user would make one (openapi-typescript, then
 * openapi-fetch), and the quick start of docs/examples compiled against it with tsc in
 * strict mode, then run against the local runner: numbers are numbers (`per_page: 5`),
 * bodies and answers are typed, and the error envelope is the one the service answers.
 */
const run = promisify(execFile);

// Inside the project (.build is ignored), so that the quick start finds openapi-fetch and @types/node.
mkdirSync('.build', { recursive: true });
const folder = mkdtempSync(join('.build', 'openapi-client-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** openapi-typescript's command line, as a user runs it (its CommonJS build needs ES modules jest cannot load). */
const openapiTypescript = join('node_modules/openapi-typescript', require('openapi-typescript/package.json').bin['openapi-typescript']);

const clientConfig = {
  compilerOptions: {
    strict: true,
    noUnusedLocals: true,
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'preserve',
    moduleResolution: 'bundler',
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
  },
  files: ['quick-start.ts', 'api.ts'],
};

beforeAll(async () => {
  await run(process.execPath, [openapiTypescript, 'openapi.yaml', '-o', join(folder, 'api.ts')]);
  copyFileSync('docs/examples/quick-start.ts', join(folder, 'quick-start.ts'));
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(clientConfig, null, 2));
}, 120_000);

describe('a client generated from openapi.yaml', () => {
  it('compiles the quick start (tsc --strict)', async () => {
    const compiled = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', folder]).catch((failure) => failure);
    expect(`${compiled.stdout}${compiled.stderr}`).toBe('');
    expect(compiled.code ?? 0).toBe(0);
  }, 180_000);

  it('runs the quick start against the local runner', async () => {
    const api = await startTestApi();
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', join(folder, 'quick-start.ts')], {
        env: {
          ...process.env,
          TENANT_API_URL: api.runner.baseUrl,
          TENANT_API_KEY: api.adminKey,
          // A public address literal: this machine resolves no public names, and nothing sent to it is subscribed.
          WEBHOOK_URL: 'https://93.184.216.34/hooks',
        },
      });
      expect(stdout).toMatch(/^workspace wks_[0-9A-Z]{26} /m);
      expect(stdout).toMatch(/^key sk_test_/m);
      expect(stdout).toMatch(/^listed wh_[0-9A-Z]{26} https:\/\/93\.184\.216\.34\/hooks active=true$/m);
      expect(stdout).toMatch(/5 per page$/m);
    } finally {
      await api.stop();
    }
  }, 120_000);
});
