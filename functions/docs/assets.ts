import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The files the pages load, by their name under /api/docs/assets/, with where each lives: the
 * stack copies them beside the bundle (lib/bundling.ts), the local runner reads them in place.
 */
export const docsAssets = {
  'swagger-ui-bundle.js': 'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
  'swagger-ui.css': 'node_modules/swagger-ui-dist/swagger-ui.css',
  'scalar-standalone.js': 'node_modules/@scalar/api-reference/dist/browser/standalone.js',
  'redoc.standalone.js': 'node_modules/redoc/bundles/redoc.standalone.js',
  'try-it-key.js': 'functions/docs/browser/try-it-key.js',
  'swagger-page.js': 'functions/docs/browser/swagger-page.js',
  'scalar-page.js': 'functions/docs/browser/scalar-page.js',
  'redoc-page.js': 'functions/docs/browser/redoc-page.js',
  'login-page.js': 'functions/docs/browser/login-page.js',
  'docs.css': 'functions/docs/browser/docs.css',
  'favicon.svg': 'functions/docs/browser/favicon.svg',
} as const;

export type AssetName = keyof typeof docsAssets;

/** The folder beside the Lambda bundle that holds the assets. */
export const assetFolder = 'docs-assets';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

const pathOf = (name: AssetName) =>
  process.env.LAMBDA_TASK_ROOT ? join(process.env.LAMBDA_TASK_ROOT, assetFolder, name) : join(repositoryRoot, docsAssets[name]);

export const isAsset = (name: string): name is AssetName => Object.hasOwn(docsAssets, name);

const contentTypes: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

export const contentTypeOf = (name: AssetName) => contentTypes[name.slice(name.lastIndexOf('.') + 1)]!;

/**
 * Rewrites of the served bundles, so that a page asks nothing of another origin (Redoc's CDN
 * logo, Scalar's web fonts); one that no longer finds its text fails at load rather than let
 * the request through.
 */
const rewrites: Partial<Record<AssetName, [string, string][]>> = {
  'redoc.standalone.js': [['https://cdn.redoc.ly/redoc/logo-mini.svg', 'data:,']],
  'scalar-standalone.js': [['url(https://fonts.scalar.com/', 'url(data:,']],
};

function rewritten(name: AssetName, text: string): string {
  return (rewrites[name] ?? []).reduce((t, [from, to]) => {
    if (!t.includes(from)) throw new Error(`${name} no longer holds ${JSON.stringify(from)}: see functions/docs/assets.ts`);
    return t.replaceAll(from, to);
  }, text);
}

interface LoadedAsset {
  text: string;
  /** Gzipped once: Scalar's bundle is 3.5 MB, 1 MB gzipped, well within a Lambda answer either way. */
  gzipped: Buffer;
}

const loaded = new Map<AssetName, Promise<LoadedAsset>>();

/** An asset's text and its gzipped bytes, read once per process. */
export function loadAsset(name: AssetName): Promise<LoadedAsset> {
  let asset = loaded.get(name);
  if (!asset) {
    asset = readFile(pathOf(name), 'utf8').then((read) => {
      const text = rewritten(name, read);
      return { text, gzipped: gzipSync(text) };
    });
    loaded.set(name, asset);
  }
  return asset;
}
