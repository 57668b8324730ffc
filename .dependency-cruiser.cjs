/**
 * The import rules of the runtime code (README, Architecture: Layers): no circles, and imports run one
 * way, from entry points down to the platform. `npm test` runs this (npm run check:imports).
 *
 * bin/, lib/ -> functions/<fn>/ (routes, handlers, definition, index), functions/routes.ts
 *   -> functions/core/<folder>, each importing only the folders its entry in `uses` names
 *
 * Read from the top, the entries fall into bands, each using only bands below it: what the
 * functions are built from (adapters, batch, mcp), then http (dispatch and the HTTP side), then
 * the bounded contexts, then the ground (lists, access, ports, then store, then platform).
 * Contexts use one another only as declared, and the declarations form no circle.
 */

/** What nearly every folder stands on: the ports it is handed, the table, the platform. */
const ground = ['ports', 'store', 'platform'];

/**
 * Each folder of functions/core/ with the folders it may import, as a package names its
 * dependencies: what the code imports, nothing more. A new context gets an entry here, and
 * the folders that import it name it in theirs.
 */
const uses = {
  adapters: ['http', 'webhooks', ...ground],
  batch: ['http', 'content', 'access', 'ports', 'platform'],
  mcp: ['http', 'namespaces', 'entitlements', 'access', 'ports', 'platform'],
  http: ['operations', 'credentials', 'users', 'metering', 'lists', 'access', ...ground],
  docs: ['credentials', 'api-keys', 'access', ...ground],
  operations: ['accounts', 'workspaces', 'members', 'api-keys', 'users', 'entitlements', 'access', ...ground],
  oauth: ['credentials', 'tenancy', 'access', ...ground],
  credentials: ['api-keys', 'namespaces', 'entitlements', 'access', ...ground],
  accounts: ['workspaces', 'members', 'api-keys', 'users', 'events', ...ground],
  workspaces: [
    ...['content', 'members', 'seo', 'webhooks', 'users', 'namespaces', 'entitlements', 'tenancy', 'pixel', 'events'],
    ...['lists', 'access', ...ground],
  ],
  content: ['namespaces', 'entitlements', 'tenancy', 'events', 'lists', 'access', ...ground],
  members: ['users', 'namespaces', 'entitlements', 'tenancy', 'events', 'lists', 'access', ...ground],
  seo: ['namespaces', 'entitlements', 'tenancy', 'events', 'lists', ...ground],
  webhooks: ['namespaces', 'entitlements', 'tenancy', 'events', 'lists', 'access', ...ground],
  'api-keys': ['namespaces', 'entitlements', 'tenancy', 'events', 'lists', 'access', ...ground],
  users: ['namespaces', 'tenancy', 'events', 'lists', 'access', ...ground],
  namespaces: ['entitlements', 'events', 'lists', 'access', ...ground],
  entitlements: ['tenancy', ...ground],
  tenancy: ['pixel', 'access', ...ground],
  pixel: [...ground],
  events: ['access', ...ground],
  metering: ['access', ...ground],
  lists: ['store', 'platform'],
  access: ['store', 'platform'],
  ports: ['store', 'platform'],
  store: ['platform'],
  platform: [],
};

const folders = Object.keys(uses);

const folder = (name) => `^functions/core/${name}/`;

/** A folder that names one it does not know, or that comes back to itself through what it uses, is a mistake of this file. */
function checkDeclarations() {
  const unknown = folders.flatMap((name) => uses[name].filter((used) => !(used in uses)).map((used) => `${name} -> ${used}`));
  if (unknown.length) throw new Error(`.dependency-cruiser.cjs: \`uses\` names folders it does not declare: ${unknown.join(', ')}`);
  const done = new Set();
  const visit = (name, path) => {
    if (path.includes(name))
      throw new Error(`.dependency-cruiser.cjs: \`uses\` runs in a circle: ${[...path.slice(path.indexOf(name)), name].join(' -> ')}`);
    if (done.has(name)) return;
    for (const used of uses[name]) visit(used, [...path, name]);
    done.add(name);
  };
  for (const name of folders) visit(name, []);
}
checkDeclarations();

/** For each folder, every other folder of core that its entry does not name. */
const usesRules = folders.map((name) => ({
  name: `core-${name}-uses-what-it-declares`,
  comment: `core/${name} imports only ${uses[name].join(', ') || 'nothing of core'} (its entry in \`uses\`).`,
  severity: 'error',
  from: { path: folder(name) },
  to: { path: '^functions/core/', pathNot: [name, ...uses[name]].map(folder) },
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
        'A function reaches the table only through the contexts: no ElectroDB, no DynamoDB client, no store module but plain shapes (post and delivery statuses, issue severities, the stream records).',
      severity: 'error',
      from: { path: '^functions/(?!core/)' },
      to: {
        path: ['^functions/core/store/', 'node_modules/(electrodb|@aws-sdk/lib-dynamodb|@aws-sdk/client-dynamodb)/'],
        pathNot: [
          '^functions/core/store/entities/delivery-status\\.ts$',
          '^functions/core/store/entities/post-status\\.ts$',
          '^functions/core/store/entities/seo-severity\\.ts$',
          '^functions/core/store/stream-records\\.ts$',
        ],
      },
    },
    {
      name: 'no-unknown-core-folder',
      comment: 'Every file of functions/core/ lies in a folder of `uses` (a new context gets an entry there).',
      severity: 'error',
      from: { path: '^functions/core/', pathNot: folders.map(folder) },
      to: {},
    },
    {
      name: 'aws-lambda-types-in-http-only',
      comment: "Only core/http knows API Gateway's event shapes; the contexts are plain TypeScript.",
      severity: 'error',
      from: { path: '^functions/core/', pathNot: [folder('http'), folder('adapters')] },
      to: { path: '^node_modules/@types/aws-lambda/' },
    },
    ...usesRules,
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
