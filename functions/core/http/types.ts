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

/** What any answer may carry besides its body. */
interface ResponseExtras {
  headers?: Record<string, string>;
  /** Set-Cookie values, one header each. */
  cookies?: string[];
}

/** Any answer, as the pipeline encodes it and idempotency stores it. */
export interface ApiResponse extends ResponseExtras {
  status: number;
  body?: unknown;
  /** An HTML page instead of a JSON body (OAuth's consent page). */
  html?: string;
}

type JsonAnswer<S, D> = D extends { schema: infer Schema extends ZodMiniType }
  ? ResponseExtras & { status: S; body: output<Schema>; html?: never }
  : never;
type PageAnswer<S, D> = D extends { html: true } ? ResponseExtras & { status: S; html: string; body?: never } : never;
type EmptyAnswer<S, D> = D extends { schema: ZodMiniType } | { html: true }
  ? never
  : ResponseExtras & { status: S; body?: never; html?: never };

/** The answers one declared response allows: its schema's body, its page, either where it has both (Accept decides), or neither. */
type Answer<S, D> = JsonAnswer<S, D> | PageAnswer<S, D> | EmptyAnswer<S, D>;

/** A browser's refusal, as a page with the error's status (RouteSpec.htmlRefusals). */
type HtmlRefusal<R extends RouteSpec> = R extends { htmlRefusals: true }
  ? ResponseExtras & { status: number; html: string; body?: never }
  : never;

/**
 * The answers a route's handler may give: one per status its `responses` declare, with that
 * response's body. A route typed only as RouteSpec (the pipeline's view of any route) may give any.
 */
export type ResponseOf<R extends RouteSpec> = number extends keyof R['responses']
  ? ApiResponse
  : { [S in keyof R['responses'] & number]: Answer<S, R['responses'][S]> }[keyof R['responses'] & number] | HtmlRefusal<R>;

export type RouteHandler<R extends RouteSpec> = (request: ApiRequest<R>, deps: Deps) => Promise<ResponseOf<R>>;

/** The handlers one Lambda function must provide: one per route of its table. */
export type HandlersFor<Routes extends RouteSpec> = {
  [R in Routes as R['operationId']]: RouteHandler<R>;
};
