/**
 * The import rules of the runtime code (README, Architecture: Layers): no circles, and imports run one
 * way, from entry points down to the platform. `npm test` runs this (npm run check:imports).
 *
 * functions/<fn>/ (routes, handlers, definition, index) and functions/routes.ts
 *   -> core/adapters   the AWS and default adapters of the ports; only entry points build them
 *   -> core/batch      a batch's operations, each run through dispatch as its single route
 *   -> core/mcp        the MCP functions' common ground: the tool catalogue of the routes they are given, tool calls, resources
 *   -> core/http       dispatch: scope, validation, context, idempotency, envelope
 *   -> core/<context>  one folder per bounded context, each importing only those after it in `contexts`
 *   -> core/lists      list queries, pages, cursors
 *   -> core/ports      what the contexts need from outside (Deps and its port interfaces)
 *   -> core/store      ElectroDB entities, item and key types, the table client
 *   -> core/platform   errors, configuration, ids, clock, telemetry, tiers, environments
 */

/** The bounded contexts, each above every one after it: a context imports only later ones. */
const contexts = [
  'docs',
  'operations',
  'oauth',
  'credentials',
  'accounts',
  'workspaces',
  'content',
  'members',
  'seo',
  'webhooks',
  'api-keys',
  'users',
  'namespaces',
  'entitlements',
  'tenancy',
  'pixel',
  'events',
  'metering',
  'access',
];

const layers = ['adapters', 'batch', 'mcp', 'http', ...contexts, 'lists', 'ports', 'store', 'platform'];

const folder = (name) => `^functions/core/${name}/`;

/** For each layer, the layers above it, which it must not import. */
const upwardRules = layers.slice(1).map((layer, i) => ({
  name: `no-import-up-from-${layer}`,
  comment: `core/${layer} imports only what lies below it: ${layers.slice(i + 2).join(', ') || 'nothing of core'}.`,
  severity: 'error',
  from: { path: folder(layer) },
  to: { path: layers.slice(0, i + 1).map(folder) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, of any length.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-below-functions',
      comment: 'functions/core/ is what the functions are made of; it never imports a function, the route registry or lib/.',
      severity: 'error',
      from: { path: '^functions/core/' },
      to: { path: ['^functions/(?!core/)', '^lib/', '^bin/'] },
    },
    {
      name: 'functions-are-below-lib',
      comment: 'The runtime code never imports the stack, the local runner or the tools (lib/, bin/).',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: ['^lib/', '^bin/', '^bench/', '^test/'] },
    },
    {
      name: 'data-through-the-contexts',
      comment:
        'A function reaches the table only through the contexts: no ElectroDB, no DynamoDB client, no store module but plain shapes (item types, delivery statuses, stream records).',
      severity: 'error',
      from: { path: '^functions/(?!core/)' },
      to: {
        path: ['^functions/core/store/', 'node_modules/(electrodb|@aws-sdk/lib-dynamodb|@aws-sdk/client-dynamodb)/'],
        pathNot: [
          '^functions/core/store/items\\.ts$',
          '^functions/core/store/entities/delivery-status\\.ts$',
          '^functions/core/store/entities/post-status\\.ts$',
          '^functions/core/store/entities/seo-severity\\.ts$',
          '^functions/core/store/stream-records\\.ts$',
        ],
      },
    },
    {
      name: 'no-unknown-core-folder',
      comment: 'Every file of functions/core/ lies in one of the layers above (a new context is added to `contexts`).',
      severity: 'error',
      from: { path: '^functions/core/', pathNot: layers.map(folder) },
      to: {},
    },
    {
      name: 'aws-lambda-types-in-http-only',
      comment: "Only core/http knows API Gateway's event shapes; the contexts are plain TypeScript.",
      severity: 'error',
      from: { path: '^functions/core/', pathNot: [folder('http'), folder('adapters')] },
      to: { path: '^node_modules/@types/aws-lambda/' },
    },
    ...upwardRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
