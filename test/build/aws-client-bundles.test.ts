import { secretsOf } from '#core/adapters/function-definition';
import type { SecretName } from '#core/platform/secret-settings';
import { functionNames } from '#lib/bundling';
import { functionDefinitions, routeFunctions } from '../../functions/definitions.ts';
import { unminifiedBundle } from '../support/unminified-bundles.ts';

/** The functions whose definitions declare the key: the stack gives them its ARN and read access (test/infra/stack.test.ts). */
const declaring = (secret: SecretName) => functionNames.filter((name) => secretsOf(functionDefinitions[name]).includes(secret));

/**
 * Only the functions that use an AWS client besides DynamoDB hold it, with its adapter: the
 * others, the authorizer above all, stay small.
 */
const clients = [
  { client: '@aws-sdk/client-sesv2', adapter: 'functions/core/adapters/mailer/ses-mailer.ts', holders: ['users', 'sessions'] as string[] },
  {
    client: '@aws-sdk/client-api-gateway',
    adapter: 'functions/core/adapters/gateway-keys/api-gateway-keys.ts',
    holders: ['workspaces', 'sessions', 'admin', 'gateway-key-reconciler'],
  },
  {
    client: '@aws-sdk/client-sqs',
    adapter: 'functions/core/adapters/delivery-queue/sqs-delivery-queue.ts',
    holders: ['webhook-deliveries', 'webhook-fanout', 'webhook-worker', 'webhook-sweeper'],
  },
  {
    client: '@aws-sdk/client-scheduler',
    adapter: 'functions/core/adapters/retry-scheduler/scheduler-retry-scheduler.ts',
    holders: ['webhook-worker', 'webhook-sweeper'],
  },
  {
    client: '@aws-sdk/client-lambda',
    adapter: 'functions/core/adapters/route-invoker/lambda-route-invoker.ts',
    holders: ['mcp', 'mcp-protocol'],
  },
  // Secrets Manager: the functions that read a key at init, and no other.
  {
    client: '@aws-sdk/client-secrets-manager',
    adapter: 'functions/core/adapters/secrets/function-secrets.ts',
    holders: [
      ...['workspaces', 'api-keys', 'users', 'namespaces', 'webhooks', 'webhook-deliveries', 'content', 'seo'],
      ...['pixel', 'webhook-worker'],
    ],
  },
  // A function that signs or reads list cursors, or hashes pixel visitors, declares the key: a bundle holds the code exactly then.
  { client: 'functions/core/lists/cursor.ts', adapter: 'functions/core/lists/list-page.ts', holders: declaring('cursorSigningKey') },
  { client: 'functions/core/pixel/visitors.ts', adapter: 'functions/core/pixel/visitors.ts', holders: declaring('pixelHashKey') },
  // Ajv nowhere: the MCP SDK's validator is a stub in the bundles (lib/bundle-stubs/ajv.ts; test/unit/ajv-stub.test.ts).
  { client: 'node_modules/ajv/', adapter: 'node_modules/ajv-formats/dist/index.js', holders: [] as string[] },
  // The MCP SDK: the protocol's function alone.
  { client: '@modelcontextprotocol/sdk', adapter: 'functions/mcp-protocol/protocol-server.ts', holders: ['mcp-protocol'] },
  // The table: every function but the MCP protocol's, which asks the mcp function.
  {
    client: 'electrodb',
    adapter: 'functions/core/store/client.ts',
    holders: functionNames.filter((name) => name !== 'mcp-protocol'),
  },
  // No AWS client, but held the same way. Dispatch and the HTTP answer: the functions API Gateway invokes for routes.
  {
    client: 'functions/core/http/dispatch.ts',
    adapter: 'functions/core/http/http-handler.ts',
    holders: Object.keys(routeFunctions).filter((name) => name !== 'mcp-protocol'),
  },
  // The keys of webhook secrets, and the code that seals with them.
  {
    client: 'functions/core/webhooks/secret-box.ts',
    adapter: 'functions/core/adapters/webhook-secrets/configured-secret-box.ts',
    holders: ['webhooks', 'webhook-deliveries', 'webhook-worker'],
  },
];

describe('which bundles hold which AWS client', () => {
  it.each(functionNames)('%s', async (name) => {
    // The authorizer leaves @aws-sdk/* to the runtime: there a client would be an external import.
    const { inputs, externals } = await unminifiedBundle(name);
    for (const { client, adapter, holders } of clients) {
      const holdsClient = [...inputs, ...externals].some((path) => path.includes(client));
      expect({ client, holdsClient, adapter: inputs.includes(adapter) }).toEqual({
        client,
        holdsClient: holders.includes(name),
        adapter: holders.includes(name),
      });
    }
  });
});
