import type { FunctionDefinition } from '#core/adapters/function-definition';
import { adminFunction } from './admin/definition.ts';
import { apiKeysFunction } from './api-keys/definition.ts';
import { authorizerFunction } from './authorizer/definition.ts';
import { contentFunction } from './content/definition.ts';
import { docsFunction } from './docs/definition.ts';
import { entitlementsFunction } from './entitlements/definition.ts';
import { gatewayKeyReconcilerFunction } from './gateway-key-reconciler/definition.ts';
import { mcpFunction } from './mcp/definition.ts';
import { mcpProtocolFunction } from './mcp-protocol/definition.ts';
import { namespacesFunction } from './namespaces/definition.ts';
import { oauthFunction } from './oauth/definition.ts';
import { pixelFunction } from './pixel/definition.ts';
import { prunerFunction } from './pruner/definition.ts';
import type { LambdaFunctionName, routeTables } from './routes.ts';
import { seoFunction } from './seo/definition.ts';
import { sessionsFunction } from './sessions/definition.ts';
import { usersFunction } from './users/definition.ts';
import { webhookDeliveriesFunction } from './webhook-deliveries/definition.ts';
import { webhookFanoutFunction } from './webhook-fanout/definition.ts';
import { webhookSweeperFunction } from './webhook-sweeper/definition.ts';
import { webhookWorkerFunction } from './webhook-worker/definition.ts';
import { webhooksFunction } from './webhooks/definition.ts';
import { workspacesFunction } from './workspaces/definition.ts';

/**
 * Every function's definition, for the local runner and the CDK stack. The route registry
 * (routes.ts) stays apart, with the routes alone: the local runner's unmatched handler
 * matches paths against it.
 */
export const routeFunctions = {
  workspaces: workspacesFunction,
  'api-keys': apiKeysFunction,
  users: usersFunction,
  sessions: sessionsFunction,
  admin: adminFunction,
  oauth: oauthFunction,
  entitlements: entitlementsFunction,
  namespaces: namespacesFunction,
  webhooks: webhooksFunction,
  'webhook-deliveries': webhookDeliveriesFunction,
  content: contentFunction,
  seo: seoFunction,
  mcp: mcpFunction,
  'mcp-protocol': mcpProtocolFunction,
  pixel: pixelFunction,
} as const satisfies { [F in LambdaFunctionName]: { name: F; routes: readonly (typeof routeTables)[F][number][] } };

/**
 * The functions that serve no route of the registry: the authorizer, the
 * documentation (its pages are not operations of the API), and what schedules, the stream
 * and the queue invoke.
 */
const otherFunctions = {
  authorizer: authorizerFunction,
  docs: docsFunction,
  pruner: prunerFunction,
  'gateway-key-reconciler': gatewayKeyReconcilerFunction,
  'webhook-fanout': webhookFanoutFunction,
  'webhook-worker': webhookWorkerFunction,
  'webhook-sweeper': webhookSweeperFunction,
} as const satisfies Record<string, FunctionDefinition>;

export type FunctionName = LambdaFunctionName | keyof typeof otherFunctions;

/** Every function's definition by its name: what gets bundled and deployed. */
export const functionDefinitions: { readonly [F in FunctionName]: FunctionDefinition & { name: F } } = {
  ...routeFunctions,
  ...otherFunctions,
};
