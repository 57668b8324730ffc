import type { ZodMiniObject, ZodMiniType } from 'zod/mini';
import type { CredentialType } from '#core/access/principal';
import type { KnownScope } from '#core/access/scopes';
import type { ListSpec } from '#core/lists/list-query';
import type { ConfigFlag } from '#core/platform/config';
import type { ErrorCode } from '#core/platform/error-catalogue';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteResponse {
  description: string;
  schema?: ZodMiniType;
  /**
   * The body is an HTML page (OAuth's consent page, a mailed link's page), not JSON; with a
   * schema as well, a page or JSON as the client's Accept asks (http/accept.ts).
   */
  html?: true;
}

/**
 * The scope a credential route requires: a scope of the catalogue, or `admin:*` for
 * platform operations. Every credential route names one, the caller's own account
 * included (`users:read` to read it, `users:write` to change it or its tokens).
 */
export type RouteScope = KnownScope | 'admin:*';

interface RouteBase {
  operationId: string;
  method: HttpMethod;
  /** Relative to the API prefix (`/api/v1`), or to the base URL when `mount` is `root`, with `{name}` path parameters. */
  path: string;
  /** `root` for the spec's `{base_url}/login`-style endpoints outside the versioned prefix. */
  mount?: 'root';
  /** An optional feature's switch: while it is off the route answers 404, as if it did not exist. */
  enabledBy?: ConfigFlag;
  summary: string;
  /**
   * What the summary leaves out, in a sentence or two, where it does (openapi.yaml puts it
   * first in the operation's description; who may call and the like are added from the other fields).
   */
  description?: string;
  tag: string;
  params?: ZodMiniObject;
  query?: ZodMiniObject;
  body?: ZodMiniType;
  /**
   * `form`: the body is application/x-www-form-urlencoded (OAuth's token endpoint), its fields given to `body` as strings.
   * `beacon`: JSON sent as application/json or as text/plain, as `navigator.sendBeacon` sends a string (the pixel). JSON otherwise.
   */
  bodyFormat?: 'form' | 'beacon';
  /** `any-origin`: a public tracker's route, which every site's pages call: any Origin is granted, preflight and answer, whatever CORS_ALLOWED_ORIGINS says. */
  cors?: 'any-origin';
  /** For list endpoints: what may be sorted, filtered, searched and trimmed. */
  list?: ListSpec;
  /** Error codes the route answers beyond those its other properties imply (lib/openapi/route-errors.ts). */
  errors?: readonly ErrorCode[];
  /** Its handler answers a browser's refusals as an HTML page with the same status (a mailed link's button), the envelope to a client that asks for JSON. */
  htmlRefusals?: true;
  responses: Record<number, RouteResponse>;
}

/** The authorizer must find a valid credential that grants `scope`. */
export interface CredentialRoute extends RouteBase {
  auth: 'credential';
  scope: RouteScope;
  /** The credential types that may call; all when absent. */
  credentials?: readonly CredentialType[];
  /** Platform operators only (the bootstrap admin), whatever the credential's scopes. */
  platformAdmin?: true;
  /** Still answers while the acting workspace is suspended (who am I, resume). */
  allowSuspended?: true;
  /** Still answers while the acting workspace is unpaid (402 otherwise): what a tenant needs to settle or leave. Implied by allowSuspended. */
  allowUnpaid?: true;
  /**
   * What the route changes carries the environment, and a test credential reaches only
   * test records there (API keys, webhook endpoints, deliveries, usage): test keys may call
   * it. Every other route that changes data changes live data, which a test key may not
   * (docs/decisions.md, Test mode): it answers 403 before anything is read.
   */
  keepsEnvironmentsApart?: true;
  /** It runs other routes' operations as the caller (an MCP tool call, a resource read) and answers their refusals as its own. */
  runsOperations?: true;
  /** It may run for long (a batch, an MCP tool call): at most the tier's `concurrentCalls` of one credential at once (metering/concurrency-leases.ts). */
  limitsConcurrency?: true;
  /** False where a repeat is the client's protocol's to make (MCP's JSON-RPC has its own request ids): no Idempotency-Key. */
  idempotencyKey?: false;
}

/** Public: how a credential is obtained (register, login, OAuth token). */
export interface PublicRoute extends RouteBase {
  auth: 'none';
  scope?: never;
  credentials?: never;
  platformAdmin?: never;
  allowSuspended?: never;
  allowUnpaid?: never;
  keepsEnvironmentsApart?: never;
  runsOperations?: never;
  limitsConcurrency?: never;
  idempotencyKey?: never;
}

/** One endpoint as its resource folder declares it (functions/<resource>/routes.ts). */
export type RouteSpec = CredentialRoute | PublicRoute;

/** One endpoint of the registry: its spec and the Lambda function (resource folder) that serves it. */
export type Route = RouteSpec & { function: string };

/** The path API Gateway and the local gateway serve a route at. */
export const routePath = (route: Pick<RouteSpec, 'path' | 'mount'>, prefix: string): string =>
  route.mount === 'root' ? route.path : prefix + route.path;

/** A route's path as OpenAPI writes it: a greedy `{uri+}` (API Gateway's: the rest of the path, slashes and all) is `{uri}`. */
export const documentedPath = (path: string): string => path.replace(/\{(\w+)\+\}/g, '{$1}');
