import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { gatewayResponse } from '#core/http/gateway-responses';
import { matchRoute } from '#core/http/route-match';
import { errorEnvelope } from '#core/platform/error-envelope';
import { type LambdaFunctionName, routes } from '#routes';
import { authorizerEvent, type IncomingRequest, incomingRequest, proxyEvent } from './proxy-event.ts';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface LocalFunctions {
  authorizer(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult>;
  fallback: ProxyHandler;
  routed: Record<LambdaFunctionName, ProxyHandler>;
}

/** API Gateway's own payload limit. */
const maxPayloadBytes = 10 * 1024 * 1024;

class PayloadTooLarge extends Error {}

/**
 * The body in base64, as API Gateway hands it over when every media type is binary (the
 * RestApi's binaryMediaTypes, lib/constructs/api.ts): the functions decode it, refusing
 * bytes that are not UTF-8.
 */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxPayloadBytes) fail(new PayloadTooLarge());
      else chunks.push(chunk);
    });
    req.on('end', () => done(size ? Buffer.concat(chunks).toString('base64') : null));
    req.on('error', fail);
  });
}

function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    functionName,
    awsRequestId: requestId,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  } as Context;
}

function send(res: ServerResponse, result: APIGatewayProxyResult) {
  const headers: Record<string, string | string[]> = { ...result.headers } as Record<string, string>;
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

/** What API Gateway answers by itself, rendered from the same specs as the CDK GatewayResponses. */
function gatewayAnswer(type: string, requestId: string, status?: number): APIGatewayProxyResult {
  const { error } = gatewayResponse(type);
  return {
    statusCode: status ?? error.status,
    headers: { 'Content-Type': 'application/json', 'X-Request-ID': requestId },
    body: JSON.stringify(errorEnvelope(error, { requestId, timestamp: new Date().toISOString() })),
  };
}

const isAllowed = (result: APIGatewayAuthorizerResult) => result.policyDocument.Statement.some((s) => s.Effect === 'Allow');

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** One request through the gateway, as the HTTP server hands it over or a test calls it in-process. */
export type GatewayHandler = (request: IncomingRequest) => Promise<APIGatewayProxyResult>;

/**
 * A small API Gateway: matches routes as the RestApi does, runs the authorizer and calls the
 * owning function with the proxy event API Gateway would build; `metered` counts what a usage
 * plan would.
 */
export function gatewayHandler(fns: LocalFunctions, prefix: string, metered: (usageKey: string) => void = () => {}): GatewayHandler {
  async function handle(request: IncomingRequest, requestId: string): Promise<APIGatewayProxyResult> {
    if ((request.method === 'GET' || request.method === 'HEAD') && request.path === '/health') {
      return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{"status":"ok"}' };
    }
    const found = matchRoute(routes, request.method, request.path, prefix);
    if (found.kind !== 'match') {
      const resource = found.kind === 'wrong-method' ? found.template : '/{proxy+}';
      return fns.fallback(proxyEvent(request, resource, null, null, requestId), lambdaContext('fallback', requestId));
    }
    const resource = found.template;
    const params = Object.fromEntries(Object.entries(found.params).map(([k, v]) => [k, decode(v)]));
    let authorizer: Record<string, string> | null = null;
    if (found.route.auth === 'credential') {
      let verdict: APIGatewayAuthorizerResult;
      try {
        verdict = await fns.authorizer(authorizerEvent(request, resource, params, requestId));
      } catch (error) {
        console.error('authorizer failed', error);
        return gatewayAnswer('DEFAULT_5XX', requestId, 500);
      }
      if (!isAllowed(verdict)) return gatewayAnswer('ACCESS_DENIED', requestId);
      // API Gateway's answer to a method that requires a key when the authorizer names none.
      if (!verdict.usageIdentifierKey) return gatewayAnswer('DEFAULT_4XX', requestId, 403);
      metered(verdict.usageIdentifierKey);
      authorizer = { principalId: verdict.principalId, ...(verdict.context as Record<string, string>) };
    }
    const event = proxyEvent(request, resource, Object.keys(params).length ? params : null, authorizer, requestId);
    return fns.routed[found.route.function](event, lambdaContext(found.route.function, requestId));
  }

  return async (request) => {
    const requestId = randomUUID();
    if (request.body && Buffer.byteLength(request.body, 'base64') > maxPayloadBytes) return gatewayAnswer('REQUEST_TOO_LARGE', requestId);
    try {
      return await handle(request, requestId);
    } catch (error) {
      console.error('function failed', error);
      return gatewayAnswer('DEFAULT_5XX', requestId, 502);
    }
  };
}

/** The gateway over HTTP: a body past API Gateway's limit is refused as it streams in. */
export function createGateway(handler: GatewayHandler): Server {
  const server = createServer(async (req, res) => {
    try {
      send(res, await handler(incomingRequest(req, await readBody(req))));
    } catch (error) {
      // Only reading the body throws here: past the limit, or the client went away.
      if (error instanceof PayloadTooLarge) return send(res, gatewayAnswer('REQUEST_TOO_LARGE', randomUUID()));
      console.error('reading the request failed', error);
      send(res, gatewayAnswer('DEFAULT_5XX', randomUUID(), 502));
    }
  });
  // Longer than a client keeps an idle connection (fetch: 4 s), so that the client closes it first
  // and never sends a request down a socket the server is closing (ECONNRESET on a busy machine).
  server.keepAliveTimeout = 65_000;
  return server;
}
