import { lambdaHandler } from '#core/adapters/lambda-handler';
import { lambdaRouteInvoker } from '#core/adapters/route-invoker/lambda-route-invoker';
import { mcpFunction } from './definition.ts';

export const handler = lambdaHandler(mcpFunction, { routeInvoker: lambdaRouteInvoker });
