import type { ZodMiniObject, ZodMiniType } from 'zod/mini';
import type { CredentialType } from './auth/principal.ts';
import type { ConfigFlag } from './config.ts';
import type { ListSpec } from './lists.ts';

export const lambdaFunctions = ['workspaces', 'api-keys', 'users', 'sessions', 'admin', 'oauth'] as const;
export type LambdaFunctionName = (typeof lambdaFunctions)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteResponse {
  description: string;
  schema?: ZodMiniType;
}

/** One endpoint: everything the gateway, the function, scope checks and the docs need. */
export interface Route {
  operationId: string;
  method: HttpMethod;
  /** Relative to the API prefix (`/api/v1`), or to the base URL when `mount` is `root`, with `{name}` path parameters. */
  path: string;
  /** `root` for the spec's `{base_url}/login`-style endpoints outside the versioned prefix. */
  mount?: 'root';
  function: LambdaFunctionName;
  /** `credential`: the authorizer must find a valid credential; `none`: public. */
  auth: 'credential' | 'none';
  /** The scope the credential must grant; undefined where any valid credential may call. */
  scope?: string;
  /** The credential types that may call; all when absent. */
  credentials?: readonly CredentialType[];
  /** Platform operators only (the bootstrap admin), whatever the credential's scopes. */
  platformAdmin?: true;
  /** Still answers while the acting workspace is suspended (who am I, resume). */
  allowSuspended?: true;
  /** An optional feature's switch: while it is off the route answers 404, as if it did not exist. */
  enabledBy?: ConfigFlag;
  summary: string;
  tag: string;
  params?: ZodMiniObject;
  query?: ZodMiniObject;
  body?: ZodMiniType;
  /** `form`: the body is application/x-www-form-urlencoded (OAuth's token endpoint), its fields given to `body` as strings. JSON otherwise. */
  bodyFormat?: 'form';
  /** For list endpoints: what may be sorted, filtered, searched and trimmed. */
  list?: ListSpec;
  responses: Record<number, RouteResponse>;
}

/** The path API Gateway and the local gateway serve a route at. */
export const routePath = (route: Pick<Route, 'path' | 'mount'>, prefix: string): string =>
  route.mount === 'root' ? route.path : prefix + route.path;
