import { taggedRoutes } from '#core/http/route-table';
import { mcpRoutes } from './mcp/routes.ts';
import { mcpProtocolRoutes } from './mcp-protocol/routes.ts';
import { operationRouteTables } from './operation-routes.ts';

/**
 * The registry: every function's route table, keyed by the function that serves it. The stack,
 * the local gateway, scope enforcement and openapi.yaml are derived from it, so that an
 * endpoint is one entry in its folder's table plus its handler.
 */
export const routeTables = { ...operationRouteTables, mcp: mcpRoutes, 'mcp-protocol': mcpProtocolRoutes } as const;

type RouteTables = typeof routeTables;
export type LambdaFunctionName = keyof RouteTables;

/** The routes of one function, each tagged with the function's name. */
export type RoutesOf<F extends LambdaFunctionName> = RouteTables[F][number] & { function: F };
export type AppRoute = { [F in LambdaFunctionName]: RoutesOf<F> }[LambdaFunctionName];
export type OperationId = AppRoute['operationId'];

export const lambdaFunctions = Object.keys(routeTables) as LambdaFunctionName[];

export const routes: readonly AppRoute[] = taggedRoutes(routeTables);
