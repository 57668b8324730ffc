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

/** A request's parts as they arrive: its header pairs in order, the body in base64. */
interface RequestParts {
  method: string;
  /** The path and query as sent. */
  target: string;
  rawHeaders: readonly (readonly [string, string])[];
  body: string | null;
  sourceIp: string;
  localPort: number;
}

/** Reads a request as API Gateway sees it: header names as sent, last value wins in `headers`. */
function requestOf({ method, target, rawHeaders, body, sourceIp, localPort }: RequestParts): IncomingRequest {
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of rawHeaders) {
    const existing = Object.keys(multiValueHeaders).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
    (multiValueHeaders[existing] ??= []).push(value);
  }
  // API Gateway adds these; the functions build absolute links from them.
  const forwarded = { 'X-Forwarded-For': sourceIp, 'X-Forwarded-Proto': 'http', 'X-Forwarded-Port': String(localPort) };
  for (const [name, value] of Object.entries(forwarded)) {
    for (const key of Object.keys(multiValueHeaders)) if (key.toLowerCase() === name.toLowerCase()) delete multiValueHeaders[key];
    multiValueHeaders[name] = [value];
  }
  const headers = Object.fromEntries(Object.entries(multiValueHeaders).map(([k, v]) => [k, v.at(-1)!]));
  const url = new URL(target, 'http://local');
  const multiValueQuery: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) (multiValueQuery[key] ??= []).push(value);
  const hasQuery = Object.keys(multiValueQuery).length > 0;
  return {
    method: method.toUpperCase(),
    path: url.pathname,
    headers,
    multiValueHeaders,
    query: hasQuery ? Object.fromEntries(Object.entries(multiValueQuery).map(([k, v]) => [k, v.at(-1)!])) : null,
    multiValueQuery: hasQuery ? multiValueQuery : null,
    body,
    sourceIp,
  };
}

/** A Node request off the gateway's socket. */
export function incomingRequest(req: IncomingMessage, body: string | null): IncomingRequest {
  const rawHeaders: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) rawHeaders.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  return requestOf({
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    rawHeaders,
    body,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    localPort: req.socket.localPort ?? 0,
  });
}

/**
 * A request made in-process, as `fetch` would send it to `url` from the loopback address:
 * its headers lower-cased, with fetch's defaults and the Host of the URL.
 */
export function directRequest(method: string, url: URL, headers: Headers, body: Uint8Array | null): IncomingRequest {
  const sent = new Headers({ host: url.host, ...fetchDefaults });
  for (const [name, value] of headers) sent.set(name, value);
  if (body) sent.set('content-length', String(body.byteLength));
  return requestOf({
    method,
    target: url.pathname + url.search,
    rawHeaders: [...sent],
    body: body?.byteLength ? Buffer.from(body).toString('base64') : null,
    sourceIp: '127.0.0.1',
    localPort: Number(url.port),
  });
}

/** What Node's fetch adds to every request. */
const fetchDefaults = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

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
