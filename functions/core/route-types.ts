import type { z } from 'zod';
import type { ListSpec } from './lists.ts';

export const lambdaFunctions = ['workspaces', 'api-keys'] as const;
export type LambdaFunctionName = (typeof lambdaFunctions)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
}

/** One endpoint: everything the gateway, the function, scope checks and the docs need. */
export interface Route {
  operationId: string;
  method: HttpMethod;
  /** Relative to the API prefix (`/api/v1`), with `{name}` path parameters. */
  path: string;
  function: LambdaFunctionName;
  /** `credential`: the authorizer must find a valid credential; `none`: public. */
  auth: 'credential' | 'none';
  /** The scope the credential must grant; undefined where any valid credential may call. */
  scope?: string;
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** For list endpoints: what may be sorted, filtered, searched and trimmed. */
  list?: ListSpec;
  responses: Record<number, RouteResponse>;
}
