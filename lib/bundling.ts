import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BundlingOptions, LogLevel, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { type FunctionName, functionDefinitions } from '../functions/definitions.ts';
import { assetFolder, docsAssets } from '../functions/docs/assets.ts';

/**
 * How every Lambda is bundled. The CDK stack and `bin/build.ts` both read this file, so
 * what the benchmark measures is what gets deployed.
 */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * One bundle per top-level folder of functions/ that AWS invokes: API Gateway, a schedule
 * (pruner, gateway key reconciler, webhook sweeper), the table's stream (webhook fan-out)
 * or the delivery queue; each declares itself in its definition.ts.
 */
export const functionNames = Object.keys(functionDefinitions) as FunctionName[];
export type { FunctionName };

/** The functions of the main stack: all but docs, which lives in a nested stack of its own with its resources (lib/constructs/docs-routes.ts). */
export const mainStackFunctionNames = functionNames.filter((name): name is Exclude<FunctionName, 'docs'> => name !== 'docs');

export const entryOf = (name: FunctionName) => join(projectRoot, 'functions', name, 'index.ts');

/** Packages replaced by a stub of ours in every bundle (lib/bundle-stubs/ says why). */
const aliases = {
  jsonschema: join(projectRoot, 'lib', 'bundle-stubs', 'jsonschema.ts'),
  ajv: join(projectRoot, 'lib', 'bundle-stubs', 'ajv.ts'),
  'ajv-formats': join(projectRoot, 'lib', 'bundle-stubs', 'ajv-formats.ts'),
};

const settings = {
  target: 'node22',
  minify: true,
  // Prefer the ESM build of dual packages so that tree shaking works.
  mainFields: ['module', 'main'],
  // Some CJS dependencies call require(); an ESM bundle has none unless it makes one.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  // Readable names (keepsNames) make traces usable; a source map would cost parse time at every cold start.
  sourcemap: false,
};

/**
 * Packages left to the Lambda runtime: the route functions bundle a tree-shaken AWS SDK, which
 * loads a third faster; the authorizer keeps the runtime's, to stay within 300 KiB.
 */
const externalsOf = (name: FunctionName): string[] => (name === 'authorizer' ? ['@aws-sdk/*'] : []);

/**
 * Functions minified without their names, to stay within their size goals (the authorizer's 300
 * KiB, sessions' 1 MiB); logs read the same, as our errors name themselves by their code.
 */
const withoutNames = new Set<FunctionName>(['authorizer', 'sessions']);
const keepsNames = (name: FunctionName) => !withoutNames.has(name);

/** esbuild's own options, for building outside CDK (`npm run build`, the benchmark). */
export function esbuildOptions(name: FunctionName, outfile: string): BuildOptions {
  return {
    entryPoints: [entryOf(name)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: settings.target,
    minify: settings.minify,
    keepNames: keepsNames(name),
    external: externalsOf(name),
    mainFields: settings.mainFields,
    alias: aliases,
    banner: { js: settings.banner },
    sourcemap: settings.sourcemap,
    logLevel: 'warning',
  };
}

/** The same settings for NodejsFunction, which runs the project's own esbuild (a devDependency), not Docker. */
export const nodejsBundling = (name: FunctionName): BundlingOptions => ({
  format: OutputFormat.ESM,
  target: settings.target,
  minify: settings.minify,
  keepNames: keepsNames(name),
  externalModules: externalsOf(name),
  mainFields: settings.mainFields,
  esbuildArgs: Object.fromEntries(Object.entries(aliases).map(([name, stub]) => [`--alias:${name}`, stub])),
  banner: settings.banner,
  sourceMap: settings.sourcemap,
  logLevel: LogLevel.WARNING,
  forceDockerBundling: false,
  ...(filesBeside[name] && { commandHooks: copying(filesBeside[name]) }),
});

/**
 * Files a function reads beside its bundle (LAMBDA_TASK_ROOT), by where each goes there: the
 * mcp function serves openapi.yaml as a resource; the docs function serves it too, with the
 * documentation pages' bundles and scripts in docs-assets/ (functions/docs/assets.ts).
 */
const filesBeside: Partial<Record<FunctionName, Record<string, string>>> = {
  mcp: { 'openapi.yaml': 'openapi.yaml' },
  docs: {
    'openapi.yaml': 'openapi.yaml',
    ...Object.fromEntries(Object.entries(docsAssets).map(([name, source]) => [`${assetFolder}/${name}`, source])),
  },
};

const copying = (files: Record<string, string>): NonNullable<BundlingOptions['commandHooks']> => ({
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir, outputDir) => [
    ...new Set(Object.keys(files).flatMap((to) => (to.includes('/') ? [`mkdir -p "${outputDir}/${dirname(to)}"`] : []))),
    ...Object.entries(files).map(([to, from]) => `cp "${join(inputDir, from)}" "${outputDir}/${to}"`),
  ],
});
