import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Principal } from '#core/access/principal';
import { config } from '#core/platform/config';
import { ApiError } from '#core/platform/errors';
import type { RouteInvoker } from '#core/ports/route-invoker';
import { encodeVerdict } from './authorizer-context.ts';
import { type Route, routePath } from './route-types.ts';

/** The request an operation is invoked for (an MCP tool call, a resource read): whose, where, and from where. */
export interface OperationCaller {
  principal: Principal;
  /** The workspace the request acts in: the operation's too. */
  workspaceId: string;
  requestId: string;
  sourceIp: string;
  /** The absolute URL of the request: the operation's links are made from its origin and stage. */
  url: URL;
}

/** What an invocation needs of a route: the function that serves it, and its method and path there. */
export type InvokedRoute = Pick<Route, 'function' | 'method' | 'path' | 'mount'>;

/** What an operation was asked: its path parameters, query and body, as a client would send them. */
export interface OperationInput {
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

/** An operation's answer: its status, its JSON as text, and that JSON read. */
export interface OperationAnswer {
  status: number;
  text: string;
  body: unknown;
}

const pathOf = (template: string, params: Record<string, string>) =>
  template.replace(/\{(\w+)\+?\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

/**
 * The request API Gateway would have sent the operation's function, had the caller called
 * it directly: the same credential (the authorizer's verdict, as the calling request carried
 * it), workspace, address and request id, so that its scope, test mode, workspace, limits
 * and log line are the caller's own.
 */
function eventOf(caller: OperationCaller, route: InvokedRoute, input: OperationInput): APIGatewayProxyEvent {
  const prefix = config().API_PREFIX;
  const resource = routePath(route, prefix);
  const path = pathOf(resource, input.params);
  // What comes before the prefix in the calling request's path: the stage, in AWS.
  const stagePath = caller.url.pathname.slice(0, Math.max(0, caller.url.pathname.indexOf(prefix)));
  const headers = {
    host: caller.url.host,
    'x-forwarded-proto': caller.url.protocol.slice(0, -1),
    'x-request-id': caller.requestId,
    'x-workspace-id': caller.workspaceId,
    'content-type': 'application/json',
  };
  const query = Object.keys(input.query).length ? input.query : null;
  return {
    httpMethod: route.method,
    resource,
    path,
    pathParameters: Object.keys(input.params).length ? input.params : null,
    queryStringParameters: query,
    multiValueQueryStringParameters: query && Object.fromEntries(Object.entries(query).map(([name, value]) => [name, [value]])),
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    body: input.body === undefined ? null : JSON.stringify(input.body),
    isBase64Encoded: false,
    stageVariables: null,
    requestContext: {
      requestId: caller.requestId,
      path: stagePath + path,
      stage: stagePath.slice(1) || 'local',
      domainName: caller.url.host,
      httpMethod: route.method,
      resourcePath: resource,
      identity: { sourceIp: caller.sourceIp },
      authorizer: encodeVerdict(caller.principal),
    } as unknown as APIGatewayProxyEvent['requestContext'],
  } as APIGatewayProxyEvent;
}

/** Runs an operation in the function that serves it, as the caller, and reads its answer. */
export async function invokeOperation(
  invoker: RouteInvoker,
  caller: OperationCaller,
  route: InvokedRoute,
  input: OperationInput,
): Promise<OperationAnswer> {
  const answer = JSON.parse(await invoker.invoke(route.function, JSON.stringify(eventOf(caller, route, input)))) as APIGatewayProxyResult;
  const text = answer.isBase64Encoded ? Buffer.from(answer.body, 'base64').toString('utf8') : answer.body;
  return { status: answer.statusCode, text, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/**
 * An operation's refusal, passed on as the calling route's own: its status, codes, message and
 * details, as the caller would have had them calling the operation directly.
 */
export function refusalOf(answer: OperationAnswer): ApiError {
  const {
    error,
    error_code,
    message,
    request_id: _id,
    meta: { request_id: _metaId, timestamp: _at, ...meta } = {},
    ...extras
  } = answer.body as { error: string; error_code: string; message: string; request_id?: string; meta?: Record<string, unknown> };
  return new ApiError({ status: answer.status, code: error, errorCode: error_code }, message, extras, meta);
}
