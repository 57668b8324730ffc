import type { ServingFunctionDefinition } from '#core/adapters/function-definition';
import { toolCatalogue } from '#core/mcp/tool-catalogue';
import { operationRoutes } from '../operation-routes.ts';
import { mcpProtocolHandler } from './protocol-handler.ts';
import { mcpProtocolRoutes } from './routes.ts';

const catalogue = toolCatalogue(operationRoutes);

/** The mcp-protocol function: read by its index.ts, the local runner and the CDK stack. */
export const mcpProtocolFunction = {
  name: 'mcp-protocol',
  ports: ['routeInvoker'],
  // What needs the table it asks of the mcp function.
  table: false,
  invokes: ['mcp'],
  routes: mcpProtocolRoutes,
  serve: ({ routeInvoker }) => mcpProtocolHandler(catalogue, () => routeInvoker),
} as const satisfies ServingFunctionDefinition<'routeInvoker', 'mcp-protocol'>;
