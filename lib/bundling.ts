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
 * Packages left to the Lambda runtime. The route functions bundle the AWS SDK: tree-shaken
 * into one file, its DynamoDB client loads in about a third less time than the runtime's
 * copy spread over hundreds of modules (npm run bench: module init), and its version is
 * the one the tests ran. The authorizer keeps the runtime's SDK, to stay within its
 * 300 KiB goal; it imports less of everything else and inits within 150 ms regardless.
 */
const externalsOf = (name: FunctionName): string[] => (name === 'authorizer' ? ['@aws-sdk/*'] : []);

/**
 * Whether minification keeps function and class names, for readable stack traces. It
 * costs the authorizer 3% of its 300 KiB budget, and sessions (mail, API Gateway keys,
 * passwords and the table in one function) 50 KiB that would take it past its 1 MiB
 * (1,025 KiB with names, 975 without), so there it is off (our errors name themselves by
 * their code, so logs read the same either way).
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
