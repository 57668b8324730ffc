import { type Feature, features, tierLimit } from '#core/entitlements/features';
import type { JsonSchema } from '#core/platform/error-catalogue';

/**
 * The examples of openapi.yaml, composed from the schemas: a schema's own `examples` win, else
 * what the thing described says of itself (a workspace named Acme has the slug acme), else a
 * value by format, id prefix or property name. test/unit/openapi-examples.test.ts checks each.
 */

/** A ULID of Crockford base32, 26 characters: ids are `<prefix>_` and one. */
const sampleUlid = '01JDQ8Z6Y3K4M5N6P7Q8R9S0TV';

/** Ids of a component by its name: `id` of an ApiKey is a `key_…`. */
const idPrefixByComponent: [RegExp, string][] = [
  [/Event$/, 'evt'],
  [/Package/, 'pkg'],
  [/ApiKey/, 'key'],
  [/Delivery|Attempt/, 'del'],
  [/Webhook|Endpoint/, 'wh'],
  [/Post/, 'post'],
  [/Categor/, 'cat'],
  [/Namespace/, 'ns'],
  [/Seo/, 'seo'],
  [/Event/, 'evt'],
  [/OAuth|Client/, 'client'],
  [/Workspace|Invitation/, 'wks'],
];

/** `workspace_id`, `key_id` …: the id of another resource, by the property's name. */
const idPrefixByProperty: Record<string, string> = {
  workspace_id: 'wks',
  key_id: 'key',
  api_key_id: 'key',
  namespace_id: 'ns',
  package_id: 'pkg',
  webhook_id: 'wh',
  endpoint_id: 'wh',
  delivery_id: 'del',
  event_id: 'evt',
  post_id: 'post',
  category_id: 'cat',
  category_ids: 'cat',
  client_id: 'client',
  report_id: 'seo',
};

const T = (time: string) => `2026-11-23T${time}:00.000Z`;

/** What a mailed link carries: 32 random bytes, base64url. */
const mailedToken = 'UB3exud1E79gvjiPIp14xFO6xQlr_MmLnq1hYt5nXG4';

/** Plain text by the property that holds it. */
const textByProperty: Record<string, string> = {
  name: 'Acme',
  title: 'Hello, world',
  slug: 'hello-world',
  email: 'ada@example.com',
  url: 'https://example.com/blog/hello-world',
  page_url: 'https://example.com/blog/hello-world',
  redirect_uri: 'https://app.example.com/callback',
  referrer: 'https://news.example.org/',
  host: 'example.com',
  domain: 'example.com',
  message: 'Done.',
  description: 'Product news and release notes.',
  excerpt: 'What is new this week.',
  content: '<p>Hello, world.</p>',
  key: 'sk_test_4f9Kq2ZtR8mW3xYp7LcV1nB6dH0sJ5aE',
  prefix: 'sk_test_4f9Kq2Zt',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  token: mailedToken,
  access_token: 'oat_2YotnFZFEjr1zCsicMWpAA',
  refresh_token: 'ort_tGzv3JOkF0XG5Qx2TlKWIA',
  token_type: 'Bearer',
  scope: 'posts:read posts:write',
  password: 'correct horse battery staple',
  password_confirmation: 'correct horse battery staple',
  current_password: 'an old passphrase',
  upgrade_url: 'https://example.com/pricing',
  reason: 'Unpaid invoice',
  event: 'signup',
  path: '/blog/hello-world',
  version: '1.0.0',
  uri: 'tenant://workspaces/wks_01JDQ8Z6Y3K4M5N6P7Q8R9S0TV',
  tool: 'list_posts',
  issue_type: 'meta-description',
  // Array items, by the array's name.
  scopes: 'posts:read',
  abilities: 'posts:read',
  events: 'post.published',
  allowed_ips: '203.0.113.0/24',
  domains: 'example.com',
  test_domains: 'staging.example.com',
  timezone: 'Europe/Berlin',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
  server: 'posts',
  tools: 'list_posts',
  method: 'tools/list',
  mime_type: 'application/json',
  text: '{"data":[]}',
  workspace_name: 'Acme',
  suspended_reason: 'Unpaid invoice',
  consent_ticket: 'Jf8kQ2mZr5XwT1bN',
  token_type_hint: 'refresh_token',
  client_secret: 'cs_9vQm2LrT8xKp4WzN7bYc3HdF6gJs1aE0',
  unit: 'requests',
  event_type: 'post.published',
  response_excerpt: '{"received":true}',
  response_body: '{"received":true}',
  error: 'The connection was refused.',
  error_code: 'VALIDATION_FAILED',
  element: 'h1.title',
  grant_type: 'client_credentials',
};

/** Times by the property that holds them, in the order things happen: made, verified, published, changed, used, ended. */
const dateTimeByProperty: Record<string, string> = {
  created_at: T('08:00'),
  granted_at: T('08:00'),
  email_verified_at: T('08:05'),
  published_at: T('09:00'),
  at: T('09:00'),
  last_attempt_at: T('09:00'),
  delivered_at: T('09:00'),
  last_delivery_at: T('09:00'),
  updated_at: T('09:30'),
  revoked_at: T('09:30'),
  last_used_at: T('10:15'),
  next_retry_at: T('09:05'),
  grace_period_ends_at: '2026-11-24T08:00:00.000Z',
  previous_secret_expires_at: '2026-11-24T08:00:00.000Z',
  expires_at: '2026-12-23T08:00:00.000Z',
  reset_at: '2026-12-01T00:00:00.000Z',
  start: '2026-11-01T00:00:00.000Z',
  end: '2026-12-01T00:00:00.000Z',
};

/** Nullable properties that are null on an ordinary record: a key in no grace period, an endpoint not disabled, a workspace in good standing. */
const nullByDefault = new Set([
  'grace_period_ends_at',
  'disabled_at',
  'suspended_at',
  'suspended_reason',
  'unpaid_since',
  'next_retry_at',
  'error',
  'window',
  'published_at',
]);

const ulidOf = (prefix: string) => `${prefix}_${sampleUlid}`;

/**
 * What a thing says of itself, by the component (else the path) that describes it: values
 * that must agree with each other, and optional properties it leaves out (a check that
 * passes has no `reason`). First match wins.
 */
interface Profile {
  values?: Record<string, unknown>;
  omit?: readonly string[];
}

/** A test key, as its prefix says, with the scopes the create example asks for. */
const stagingKey = { name: 'Staging deploys', environment: 'test', scopes: ['posts:read', 'posts:write'] };

/** A free workspace's standing in a feature: about a fifth of its tier's limit used. */
function standingOf(feature: Feature) {
  const limit = tierLimit('free', feature) ?? 0;
  const used = Math.round(limit / 5);
  return { used, current_usage: used, limit, available: limit - used, percentage: limit ? Math.round((used * 100) / limit) : 0 };
}

const profileByComponent: [RegExp, Profile][] = [
  [/Event$/, { values: { created_at: T('09:30') } }],
  [/Package/, { values: { name: 'Launch bonus', entitlements: { api_calls: 100_000, webhooks: 5 } } }],
  [/^Namespace/, { values: { name: 'Acme', slug: 'acme', owner_type: 'Workspace', owner_id: ulidOf('wks') } }],
  [/Invitation/, { values: { workspace_name: 'Acme', role: 'member', expires_at: '2026-11-30T08:00:00.000Z' } }],
  [/^JoinedWorkspace$/, { values: { name: 'Acme', slug: 'acme', role: 'member' } }],
  [/Workspace(?!Settings)/, { values: { name: 'Acme', slug: 'acme' } }],
  [/UserToken/, { values: { id: 7, name: 'Deploy script', token: '7|Xb2kQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwA1b2C3d' } }],
  [/^(User|Member|MemberListItem)$/, { values: { name: 'Ada Lovelace' } }],
  [/^RotatedApiKey/, { values: { ...stagingKey, grace_period_ends_at: '2026-11-24T08:00:00.000Z' } }],
  [/ApiKey/, { values: stagingKey }],
  [/^Post/, {}],
  [/Categor/, { values: { name: 'Product news', slug: 'product-news', post_count: 1 } }],
  [/^SeoIssue/, { values: { severity: 'high', element: 'head', message: 'The page has no meta description.' } }],
  [/^Seo/, { values: { severity: 'high', element: 'head', message: 'The page has no meta description.' } }],
  [/^WebhookDelivery(ListItem)?$/, { values: { status: 'success', response_code: 200, status_code: 200 } }],
  [/^WebhookDeliveryAttempt$/, { values: { status_code: 200 }, omit: ['error'] }],
  [/^WebhookTestResult$/, { values: { status_code: 200 }, omit: ['error'] }],
  [
    /WebhookEndpoint|RotatedWebhookSecret/,
    { values: { url: 'https://hooks.example.com/tenant-api', success_count: 42, failure_count: 3, consecutive_failures: 0 } },
  ],
  [/^EntitlementCheck$/, { values: standingOf('api_calls'), omit: ['reason', 'upgrade_url'] }],
  [
    /^UsageRecorded$/,
    {
      values: { ...standingOf('storage'), feature: 'storage', unit: 'bytes', quantity: 1_048_576, metadata: { file: 'logo.png' } },
      omit: ['reason', 'upgrade_url', 'reset_at'],
    },
  ],
  // A workspace's namespace: `workspaces` is counted in its user's own.
  [/^EntitlementStandings$/, { omit: ['workspaces'] }],
  [/^UsageReport$/, { values: { total: 2000, limit: tierLimit('free', 'api_calls'), count: 2000 }, omit: ['user_id'] }],
  [/^McpServer$/, { values: { id: 'posts' } }],
  [
    /^McpTool$/,
    {
      values: {
        name: 'list_posts',
        description: 'List posts.',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      },
    },
  ],
  [/^McpToolCallResult$/, { values: { size: 11, truncated: false } }],
  [/^PixelStats$/, { values: { name: 'signup' } }],
];

/** A post as the batch example makes it, and a category as it renames it. */
const batchResults = [
  {
    index: 0,
    status: 201,
    data: {
      id: ulidOf('post'),
      title: 'Hello, world',
      slug: 'hello-world',
      excerpt: null,
      status: 'draft',
      published_at: null,
      category_ids: [],
      created_at: T('08:00'),
      updated_at: T('08:00'),
    },
  },
  {
    index: 1,
    status: 200,
    data: {
      id: ulidOf('cat'),
      name: 'Release notes',
      slug: 'product-news',
      description: 'Product news and release notes.',
      post_count: 1,
      created_at: T('08:00'),
      updated_at: T('09:30'),
    },
  },
];

/**
 * Request bodies, path parameters and answers described by no component, by the operation's
 * path (or a webhook's event type); `answer` ones hold for the answer only.
 */
const profileByPath: [RegExp, Profile & { answer?: boolean }][] = [
  [/^\/resources\/batch$/, { answer: true, values: { data: batchResults, succeeded: 2, failed: 0 } }],
  [/^\/workspaces/, { values: { name: 'Acme', slug: 'acme' } }],
  [/^\/webhooks/, { values: { url: 'https://hooks.example.com/tenant-api' } }],
  [/^\/categories/, { values: { name: 'Product news', slug: 'product-news' } }],
  [/^\/mcp\/servers/, { values: { id: 'posts' } }],
  [
    /^\/seo\/report$/,
    { values: { issues: [{ type: 'meta-description', severity: 'high', element: 'head', message: 'The page has no meta description.' }] } },
  ],
  [/^\/user\/tokens/, { values: { name: 'Deploy script', id: 7 } }],
  [/^\/(users?|register)\b/, { values: { name: 'Ada Lovelace' } }],
  [/^\/admin\/namespaces/, { values: { name: 'Launch bonus', entitlements: { api_calls: 100_000, webhooks: 5 } } }],
  [/^\/entitlements\/usage/, { values: { feature: 'storage', quantity: 1_048_576, metadata: { file: 'logo.png' } } }],
  [/^\/oauth\/revoke/, { values: { token: 'ort_tGzv3JOkF0XG5Qx2TlKWIA' } }],
  [/^\/email\//, { values: { id: 1 } }],
];

/** What an operation (or event) changes in the things it answers with, over their own profiles. */
const overrideByPath: [RegExp, Record<string, unknown>][] = [
  [/\/suspend$|^workspace\.suspended$/, { suspended_at: T('09:30'), suspended_reason: 'Unpaid invoice' }],
  [/\/publish$|^post\.published$/, { status: 'published', published_at: T('09:00') }],
  [/\/archive$|^post\.archived$/, { status: 'archived', published_at: T('09:00') }],
];

function profileOf(context: Context): Profile {
  const own =
    (context.component && profileByComponent.find(([name]) => name.test(context.component!))?.[1]) ||
    (context.path && profileByPath.find(([path, profile]) => path.test(context.path!) && (!profile.answer || context.answer))?.[1]) ||
    {};
  const override = context.path ? overrideByPath.find(([path]) => path.test(context.path!))?.[1] : undefined;
  return override ? { ...own, values: { ...own.values, ...override } } : own;
}

/** The first segment of a path names what an `{id}` in it is. */
const idPrefixBySegment: Record<string, string> = {
  workspaces: 'wks',
  'api-keys': 'key',
  webhooks: 'wh',
  posts: 'post',
  categories: 'cat',
  namespaces: 'ns',
};

/** A list's links, to the list's own path: pages by number, `next` a cursor as the service gives it. */
function linkOf(path: string, property: string): string {
  const segment = path.split('/')[1] ?? '';
  const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    ulidOf(idPrefixByProperty[name] ?? (name === 'id' ? idPrefixBySegment[segment] : undefined) ?? 'wks'),
  );
  const query = { first: 'page=1', prev: 'page=1', last: 'page=3', next: 'cursor=djEuMDFKRFE4WjZZM0s0TTVONlA3UThSOVMwVFY' }[property];
  return `http://127.0.0.1:3000/api/v1${concrete}?${query}`;
}

/** Numbers by the property that holds them, where the smallest allowed would mislead. */
const numberByProperty: Record<string, number> = {
  per_page: 25,
  current_page: 2,
  last_page: 3,
  total: 61,
  from: 26,
  to: 50,
  expires_in: 3600,
  sample_rate: 1,
  used: 120,
  current_usage: 120,
  limit: 1000,
  available: 880,
  percentage: 12,
  performance: 91,
  accessibility: 80,
  best_practices: 100,
  seo: 92,
  critical: 0,
  high: 1,
  medium: 0,
  low: 0,
  info: 0,
  response_time_ms: 142,
};

/** Strings with a pattern and no example: the first of these it accepts. */
const patternCandidates = ['hello-world', 'en-GB', 'ada@example.com', '2026-11-23', 'example', 'a1b2c3d4', '1', 'S256', 'code'];

const sampleByFormat: Record<string, string> = {
  'date-time': '2026-11-23T08:00:00.000Z',
  date: '2026-11-23',
  email: 'ada@example.com',
  uri: 'https://example.com/blog/hello-world',
  url: 'https://example.com/blog/hello-world',
  uuid: '0b6f3c52-8f3e-4c1e-9a57-2d4c1f0e8a21',
  ipv4: '203.0.113.7',
};

interface Context {
  components: Record<string, JsonSchema>;
  /** The operation's path, the named schema being walked, the property holding the value and the one holding its object. */
  path?: string;
  component?: string;
  property?: string;
  owner?: string;
  /** Whether the example is of an answer (else a request or a parameter). */
  answer?: boolean;
  /** Where we are, for the message when no example can be made. */
  at: string;
}

const fitLength = (text: string, schema: JsonSchema): string => {
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = (schema.maxLength as number | undefined) ?? Infinity;
  return text.padEnd(min, 'x').slice(0, max);
};

function idExample(context: Context): string | undefined {
  const prefix =
    (context.property && idPrefixByProperty[context.property]) ??
    (context.property === 'id' && context.component ? idPrefixByComponent.find(([name]) => name.test(context.component!))?.[1] : undefined);
  return prefix ? `${prefix}_${sampleUlid}` : undefined;
}

function stringExample(schema: JsonSchema, context: Context): string {
  const pattern = schema.pattern as string | undefined;
  const timed = schema.format === 'date-time' && context.property ? dateTimeByProperty[context.property] : undefined;
  const formatted = timed ?? sampleByFormat[schema.format as string];
  if (context.path && context.property && ['first', 'last', 'prev', 'next'].includes(context.property) && context.component === 'ListLinks')
    return linkOf(context.path, context.property);
  if (pattern) {
    const idPrefix = /^\^([a-z]+)_\[0-9A-HJKMNP-TV-Z/.exec(pattern)?.[1];
    if (idPrefix) return `${idPrefix}_${sampleUlid}`;
    const matches = new RegExp(pattern, 'u');
    const named = context.property ? textByProperty[context.property] : undefined;
    const found = [timed, named, formatted, ...patternCandidates].find((candidate) => candidate !== undefined && matches.test(candidate));
    if (found === undefined) throw new Error(`No example matches ${pattern} at ${context.at}: give the schema one (withMeta examples)`);
    return found;
  }
  const text =
    idExample(context) ?? (context.property ? textByProperty[context.property] : undefined) ?? formatted ?? context.property ?? 'text';
  return fitLength(text, schema);
}

function numberExample(schema: JsonSchema, context: Context): number {
  const named = context.property ? numberByProperty[context.property] : undefined;
  const minimum = (schema.minimum as number | undefined) ?? ((schema.exclusiveMinimum as number | undefined) ?? 0) + 1;
  const maximum = (schema.maximum as number | undefined) ?? Infinity;
  return Math.min(Math.max(minimum, named ?? 1), maximum);
}

const isNull = (schema: JsonSchema) => schema.type === 'null';

const allowsNull = (schema: JsonSchema): boolean =>
  isNull(schema) ||
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.some(isNull) === true;

/** A feature's standing says that feature's unit, and a reset only where it counts by the month. */
function featureValue(feature: string | undefined, name: string): { value?: unknown; omit?: boolean } {
  const about = feature ? (features as Record<string, { period: string; unit: string }>)[feature] : undefined;
  if (!about) return {};
  const standing: Record<string, unknown> = standingOf(feature as Feature);
  if (name in standing) return { value: standing[name] };
  if (name === 'unit') return { value: about.unit };
  if (name === 'reset_at' && about.period === 'total') return { omit: true };
  return {};
}

function objectExample(schema: JsonSchema, context: Context): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const profile = profileOf(context);
  const example: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const byFeature = featureValue(context.property, name);
    if (!required.has(name) && (profile.omit?.includes(name) || byFeature.omit)) continue;
    if ('const' in property) example[name] = property.const;
    else if (profile.values && name in profile.values) example[name] = profile.values[name];
    else if (byFeature.value !== undefined) example[name] = byFeature.value;
    else if (nullByDefault.has(name) && allowsNull(property)) example[name] = null;
    else example[name] = exampleOf(property, { ...context, property: name, owner: context.property, at: `${context.at}.${name}` });
  }
  return example;
}

/** An example of `schema` (JSON Schema 2020-12, references into `components`). */
function exampleOf(schema: JsonSchema, context: Context): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return exampleOf(context.components[name]!, { ...context, component: name });
  }
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return exampleOf(branches.find((branch) => !isNull(branch)) ?? branches[0]!, context);
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as JsonSchema[]).map((part) => exampleOf(part, context)), objectExample(schema, context));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return objectExample(schema, context);
    case 'array':
      return schema.items ? [exampleOf(schema.items as JsonSchema, { ...context, at: `${context.at}[]` })] : [];
    case 'string':
      return stringExample(schema, context);
    case 'integer':
    case 'number':
      return numberExample(schema, context);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return schema.properties ? objectExample(schema, context) : {};
  }
}

interface Operation {
  parameters?: { $ref?: string; in?: string; name?: string; schema?: JsonSchema; example?: unknown }[];
  requestBody?: { content: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
interface MediaType {
  schema: JsonSchema;
  example?: unknown;
}

/** Media types whose example is the object the schema describes (a page, or text, is shown by its schema alone). */
const exampledTypes = new Set(['application/json', 'application/x-www-form-urlencoded']);

function exampleMedia(content: Record<string, MediaType> | undefined, context: Context) {
  for (const [type, media] of Object.entries(content ?? {})) {
    if (exampledTypes.has(type)) media.example = exampleOf(media.schema, { ...context, at: `${context.at} ${type}` });
  }
}

/** Adds the examples to every operation of `paths` (and of `webhooks`, the events' deliveries). */
export function addExamples(operationsByPath: Record<string, Record<string, unknown>>, components: Record<string, JsonSchema>) {
  for (const [path, item] of Object.entries(operationsByPath)) {
    for (const [method, value] of Object.entries(item)) {
      if (method === 'servers') continue;
      const operation = value as Operation;
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' || !parameter.schema || !parameter.name) continue;
        const context = { components, path, property: parameter.name, at: `${at} ${parameter.name}` };
        const given = profileOf(context).values?.[parameter.name];
        parameter.example =
          given === undefined ? exampleOf(parameter.schema, context) : parameter.schema.type === 'string' ? String(given) : given;
      }
      exampleMedia(operation.requestBody?.content, { components, path, at: `${at} request` });
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status.startsWith('2')) exampleMedia(response.content, { components, path, answer: true, at: `${at} ${status}` });
      }
    }
  }
}
