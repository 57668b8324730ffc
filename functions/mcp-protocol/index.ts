import { lambdaRouteInvoker } from '#core/adapters/route-invoker/lambda-route-invoker';
import { mcpProtocolFunction } from './definition.ts';

export const handler = mcpProtocolFunction.serve({ routeInvoker: lambdaRouteInvoker() });
