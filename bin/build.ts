import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions, type FunctionName, functionNames, projectRoot } from '#lib/bundling';

export interface BuiltFunction {
  name: FunctionName;
  file: string;
  bytes: number;
}

const bundleFileOf = (name: FunctionName) => join(projectRoot, '.build', name, 'index.mjs');

/** Bundles every Lambda exactly as the CDK stack does, into `.build/<name>/index.mjs`. */
export async function buildAll(): Promise<BuiltFunction[]> {
  return Promise.all(
    functionNames.map(async (name) => {
      const file = bundleFileOf(name);
      await build(esbuildOptions(name, file));
      return { name, file, bytes: (await stat(file)).size };
    }),
  );
}

function printSizes(built: readonly BuiltFunction[]) {
  const width = Math.max(...built.map((b) => b.name.length));
  for (const { name, bytes } of built) {
    console.log(`${name.padEnd(width)}  ${(bytes / 1024).toFixed(1).padStart(8)} KiB`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  buildAll().then(printSizes, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
