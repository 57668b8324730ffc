import type { output, ZodMiniType } from 'zod/mini';
import type { Principal } from '#core/access/principal';
import type { Deps } from '#core/ports/deps';
import type { RouteSpec } from './route-types.ts';

type Parsed<S> = S extends ZodMiniType ? output<S> : undefined;

type Authenticated<R extends RouteSpec, T> = R['auth'] extends 'credential' ? T : undefined;

export interface ApiRequest<R extends RouteSpec = RouteSpec> {
  route: R;
  params: Parsed<R['params']>;
  query: Parsed<R['query']>;
  body: Parsed<R['body']>;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  principal: Authenticated<R, Principal>;
  /** The workspace this request acts in: the credential's own, or the one the client named. */
  workspaceId: Authenticated<R, string>;
  /** The client's address, as API Gateway saw it. */
  sourceIp: string;
  requestId: string;
  /** The absolute URL the client called, for list links. */
  url: URL;
  /** The service's public base URL (config PUBLIC_BASE_URL, or API Gateway's domain and stage), for links in mail. */
  baseUrl: string;
}

export interface ApiResponse {
  status: number;
  body?: unknown;
  /** An HTML page instead of a JSON body (OAuth's consent page). */
  html?: string;
  headers?: Record<string, string>;
  /** Set-Cookie values, one header each. */
  cookies?: string[];
}

export type RouteHandler<R extends RouteSpec> = (request: ApiRequest<R>, deps: Deps) => Promise<ApiResponse>;

/** The handlers one Lambda function must provide: one per route of its table. */
export type HandlersFor<Routes extends RouteSpec> = {
  [R in Routes as R['operationId']]: RouteHandler<R>;
};
