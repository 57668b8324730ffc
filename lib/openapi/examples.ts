import type { JsonSchema } from '#core/platform/error-catalogue';

/**
 * The examples of openapi.yaml, composed from the schemas themselves: a schema's own
 * `examples` (zod meta, as `timestamp` and `resourceName` carry them) win; else its const,
 * default or first enum value; else a realistic value for its format, its id prefix, or its
 * property's name. Each operation gets a request example (with a body), a success-response
 * example, and an example for each path parameter; test/unit/openapi-examples.test.ts
 * checks every one against its own schema.
 */

/** A ULID of Crockford base32, 26 characters: ids are `<prefix>_` and one. */
const sampleUlid = '01JDQ8Z6Y3K4M5N6P7Q8R9S0TV';

/** Ids of a component by its name: `id` of an ApiKey is a `key_…`. */
const idPrefixByComponent: [RegExp, string][] = [
  [/ApiKey/, 'key'],
  [/Delivery|Attempt/, 'del'],
  [/Webhook|Endpoint/, 'wh'],
  [/Post/, 'post'],
  [/Categor/, 'cat'],
  [/Namespace/, 'ns'],
  [/Package/, 'pkg'],
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
  token: '7|Xb2kQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwA1b2C3d',
  access_token: 'oat_2YotnFZFEjr1zCsicMWpAA',
  refresh_token: 'ort_tGzv3JOkF0XG5Qx2TlKWIA',
  token_type: 'Bearer',
  scope: 'posts:read posts:write',
  password: 'correct horse battery staple',
  password_confirmation: 'correct horse battery staple',
  current_password: 'an old passphrase',
  reason: 'Unpaid invoice',
  event: 'signup',
  path: '/blog/hello-world',
  version: '1.0.0',
  uri: 'tenant://workspaces/wks_01JDQ8Z6Y3K4M5N6P7Q8R9S0TV',
  tool: 'list_posts',
  issue_type: 'missing_meta_description',
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
  first: 'http://127.0.0.1:3000/api/v1/workspaces?page=1',
  last: 'http://127.0.0.1:3000/api/v1/workspaces?page=3',
  prev: 'http://127.0.0.1:3000/api/v1/workspaces?page=1',
  next: 'http://127.0.0.1:3000/api/v1/workspaces?page=3',
};

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
  /** The named schema being walked (for ids), and the property holding the value. */
  component?: string;
  property?: string;
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
  const formatted = sampleByFormat[schema.format as string];
  if (pattern) {
    const idPrefix = /^\^([a-z]+)_\[0-9A-HJKMNP-TV-Z/.exec(pattern)?.[1];
    if (idPrefix) return `${idPrefix}_${sampleUlid}`;
    const matches = new RegExp(pattern, 'u');
    const named = context.property ? textByProperty[context.property] : undefined;
    const found = [named, formatted, ...patternCandidates].find((candidate) => candidate !== undefined && matches.test(candidate));
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

function objectExample(schema: JsonSchema, context: Context): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const example: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    example[name] = exampleOf(property, { ...context, property: name, at: `${context.at}.${name}` });
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
        if (parameter.in === 'path' && parameter.schema)
          parameter.example = exampleOf(parameter.schema, { components, property: parameter.name, at: `${at} ${parameter.name}` });
      }
      exampleMedia(operation.requestBody?.content, { components, at: `${at} request` });
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status.startsWith('2')) exampleMedia(response.content, { components, at: `${at} ${status}` });
      }
    }
  }
}
