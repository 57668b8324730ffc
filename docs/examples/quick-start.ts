/**
 * Quick start with a client generated from openapi.yaml (docs/openapi-client.md):
 *
 *   npx openapi-typescript openapi.yaml -o docs/examples/api.ts
 *   TENANT_API_KEY=sk_live_… npx tsx docs/examples/quick-start.ts
 *
 * It creates a workspace, a test API key in it, a webhook endpoint with that key, and lists
 * the endpoints five to a page. Every call is typed: paths, parameters, bodies, answers and
 * the error envelope. test/build/openapi-client.test.ts compiles it (tsc, strict) against a
 * freshly generated client and runs it against the local runner.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './api';

type ErrorEnvelope = components['schemas']['Error'];

const baseUrl = process.env.TENANT_API_URL ?? 'http://127.0.0.1:3000/api/v1';
const apiKey = process.env.TENANT_API_KEY; // the bootstrap key `npm start` prints, or a key of yours
const webhookUrl = process.env.WEBHOOK_URL ?? 'https://example.com/webhooks/tenant-api';

/** Every error answers the same envelope: its code, a message, and the request id to quote. */
function failed(step: string, error: ErrorEnvelope): never {
  // A 422 says which field and why in `errors`; the message alone ("The given data was invalid.") does not.
  const fields = 'errors' in error && error.errors ? ` ${JSON.stringify(error.errors)}` : '';
  throw new Error(`${step}: ${error.error_code} ${error.message}${fields} (request ${error.request_id})`);
}

async function quickStart(): Promise<void> {
  if (!apiKey) throw new Error('Set TENANT_API_KEY to an API key with the scope `*` (npm start prints one).');
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });

  const workspace = await api.POST('/workspaces', { body: { name: 'Quick start' } });
  if (workspace.error) failed('create a workspace', workspace.error);
  const workspaceId = workspace.data.data.id;
  console.log(`workspace ${workspaceId} (${workspace.data.data.tier})`);

  // A test key: what it creates lives apart from live data, like a sandbox. An endpoint may only
  // receive events of what its key can read: read:all (`*:read`) as well as webhooks:manage.
  const key = await api.POST('/api-keys', {
    params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    body: { name: 'Quick start', environment: 'test', workspace_id: workspaceId, scopes: ['read:all', 'webhooks:manage'] },
  });
  if (key.error) failed('create an API key', key.error);
  console.log(`key ${key.data.data.prefix}… (shown once: keep ${key.data.data.id}'s secret now)`);

  const sandbox = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key.data.data.key}` } });
  const endpoint = await sandbox.POST('/webhooks', { body: { url: webhookUrl, events: ['post.published', 'api_key.*'] } });
  if (endpoint.error) failed('create a webhook endpoint', endpoint.error);
  console.log(`webhook ${endpoint.data.data.id} signs with ${endpoint.data.data.secret.slice(0, 10)}…`);

  const page = await sandbox.GET('/webhooks', { params: { query: { per_page: 5 } } });
  if (page.error) failed('list webhook endpoints', page.error);
  for (const listed of page.data.data) console.log(`listed ${listed.id} ${listed.url ?? ''} active=${listed.is_active ?? '?'}`);
  console.log(`page ${page.data.meta.current_page ?? '-'} of ${page.data.meta.last_page}, ${page.data.meta.per_page} per page`);
}

await quickStart();
