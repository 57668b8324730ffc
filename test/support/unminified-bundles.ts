import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions, type FunctionName } from '#lib/bundling';
import { runFolder } from './run-folder.ts';

export interface UnminifiedBundle {
  /** The files bundled, as paths from the project's root. */
  inputs: string[];
  /** What the bundle leaves to the runtime (the authorizer's AWS SDK). */
  externals: string[];
  /** The code, unminified and without kept names: each file's statements under a comment naming it. */
  text: string;
}

const built = new Map<FunctionName, Promise<UnminifiedBundle>>();

async function bundle(name: FunctionName): Promise<UnminifiedBundle> {
  const cached = join(runFolder('unminified-bundles'), `${name}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8'));
  const options = esbuildOptions(name, join(runFolder('unminified-bundles'), `${name}.mjs`));
  const result = await build({ ...options, minify: false, keepNames: false, metafile: true, write: false, logLevel: 'silent' });
  const made: UnminifiedBundle = {
    inputs: Object.keys(result.metafile.inputs),
    externals: Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path)),
    text: result.outputFiles.map((file) => file.text).join('\n'),
  };
  // Written aside and renamed, so that a file reading it meanwhile never sees half of it.
  writeFileSync(`${cached}.${process.pid}`, JSON.stringify(made));
  renameSync(`${cached}.${process.pid}`, cached);
  return made;
}

/**
 * A function's bundle as esbuild makes it with the deployed settings, but readable: built
 * once per test run and shared by the files that read bundles (which clients, tables and
 * route tables each holds), where each used to build all 22 itself.
 */
export function unminifiedBundle(name: FunctionName): Promise<UnminifiedBundle> {
  let bundled = built.get(name);
  if (!bundled) built.set(name, (bundled = bundle(name)));
  return bundled;
}
