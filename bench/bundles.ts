import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { median } from './stats.ts';

const run = promisify(execFile);

export interface BundleFigures {
  name: string;
  file: string;
  bytes: number;
  /** Every run's module-init time, in ms; the median is the figure reported. */
  initRunsMs: number[];
  initMedianMs: number;
}

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Times `import()` of some modules in a fresh `node`: the module-init part of a Lambda cold
 * start, without the process's own start-up.
 */
async function importMs(specifiers: readonly string[]): Promise<number> {
  const script =
    'const t = performance.now(); for (const s of JSON.parse(process.env.IMPORTS)) await import(s); console.log(performance.now() - t);';
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      IMPORTS: JSON.stringify(specifiers),
      TABLE_NAME: 'tenant-api-bench',
      AWS_REGION: 'us-east-1',
      NODE_ENV: 'production',
    },
    timeout: 30_000,
  });
  return Number(stdout.trim());
}

/** Median of `runs` fresh processes, one at a time (two cores, and init is CPU-bound). */
async function medianImportMs(specifiers: readonly string[], runs: number) {
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) runsMs.push(await importMs(specifiers));
  return { runsMs, medianMs: median(runsMs) };
}

/**
 * The AWS SDK's DynamoDB client loaded from node_modules, as the authorizer loads the
 * runtime's copy: most of its init. The route functions bundle a tree-shaken SDK instead.
 */
export const sdkImportMs = (runs: number) => medianImportMs(['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'], runs);

/** Builds every Lambda with the project's own build (bin/build.ts) and times each bundle's init. */
export async function measureBundles(initRuns: number): Promise<BundleFigures[]> {
  // Imported here, not at the top: bin/build.ts loads aws-cdk-lib, which the other phases do not need.
  const { buildAll } = await import('../bin/build.ts');
  const figures: BundleFigures[] = [];
  for (const bundle of await buildAll()) {
    const { runsMs, medianMs } = await medianImportMs([pathToFileURL(bundle.file).href], initRuns);
    figures.push({ ...bundle, initRunsMs: runsMs, initMedianMs: medianMs });
  }
  return figures;
}
