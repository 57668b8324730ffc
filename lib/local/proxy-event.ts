import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';

const localStage = 'local';

export interface IncomingRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  query: Record<string, string> | null;
  multiValueQuery: Record<string, string[]> | null;
  /** In base64, as API Gateway hands a body of a binary media type over (all of them are, for this API). */
  body: string | null;
  sourceIp: string;
}

/** Reads a Node request as API Gateway sees it: header names as sent, last value wins in `headers`. */
export function incomingRequest(req: IncomingMessage, body: string | null): IncomingRequest {
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const existing = Object.keys(multiValueHeaders).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
    (multiValueHeaders[existing] ??= []).push(req.rawHeaders[i + 1]!);
  }
  // API Gateway adds these; the functions build absolute links from them.
  const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
  const forwarded = { 'X-Forwarded-For': sourceIp, 'X-Forwarded-Proto': 'http', 'X-Forwarded-Port': String(req.socket.localPort) };
  for (const [name, value] of Object.entries(forwarded)) {
    for (const key of Object.keys(multiValueHeaders)) if (key.toLowerCase() === name.toLowerCase()) delete multiValueHeaders[key];
    multiValueHeaders[name] = [value];
  }
  const headers = Object.fromEntries(Object.entries(multiValueHeaders).map(([k, v]) => [k, v.at(-1)!]));
  const url = new URL(req.url ?? '/', 'http://local');
  const multiValueQuery: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) (multiValueQuery[key] ??= []).push(value);
  const hasQuery = Object.keys(multiValueQuery).length > 0;
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    headers,
    multiValueHeaders,
    query: hasQuery ? Object.fromEntries(Object.entries(multiValueQuery).map(([k, v]) => [k, v.at(-1)!])) : null,
    multiValueQuery: hasQuery ? multiValueQuery : null,
    body,
    sourceIp,
  };
}

function requestContext(request: IncomingRequest, resource: string, requestId: string) {
  const now = new Date();
  return {
    accountId: '000000000000',
    apiId: 'local',
    stage: localStage,
    requestId,
    extendedRequestId: requestId,
    resourceId: resource,
    resourcePath: resource,
    httpMethod: request.method,
    path: request.path,
    protocol: 'HTTP/1.1',
    domainName: request.headers.Host ?? request.headers.host ?? 'localhost',
    requestTimeEpoch: now.getTime(),
    requestTime: now.toUTCString(),
    identity: {
      sourceIp: request.sourceIp,
      userAgent: request.headers['User-Agent'] ?? request.headers['user-agent'] ?? null,
    },
  };
}

export function authorizerEvent(
  request: IncomingRequest,
  resource: string,
  pathParameters: Record<string, string>,
  requestId: string,
): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:local:000000000000:local/${localStage}/${request.method}${request.path}`,
    resource,
    path: request.path,
    httpMethod: request.method,
    headers: request.headers,
    multiValueHeaders: request.multiValueHeaders,
    pathParameters,
    queryStringParameters: request.query,
    multiValueQueryStringParameters: request.multiValueQuery,
    stageVariables: null,
    requestContext: requestContext(request, resource, requestId),
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

/** The REST proxy event API Gateway hands a Lambda integration; authorizer values as strings. */
export function proxyEvent(
  request: IncomingRequest,
  resource: string,
  pathParameters: Record<string, string> | null,
  authorizer: Record<string, string> | null,
  requestId: string = randomUUID(),
): APIGatewayProxyEvent {
  return {
    resource,
    path: request.path,
    httpMethod: request.method,
    headers: request.headers,
    multiValueHeaders: request.multiValueHeaders,
    queryStringParameters: request.query,
    multiValueQueryStringParameters: request.multiValueQuery,
    pathParameters,
    stageVariables: null,
    body: request.body,
    isBase64Encoded: request.body !== null,
    requestContext: { ...requestContext(request, resource, requestId), authorizer },
  } as unknown as APIGatewayProxyEvent;
}
