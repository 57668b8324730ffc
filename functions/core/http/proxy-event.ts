import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '#core/platform/config';

/** A header of the event (a proxy or an authorizer event), whatever case the client wrote its name in. */
export function headerValue(event: { headers: Record<string, string | undefined> | null }, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** Every header once, its name lower-cased (the last value of a repeated one, as API Gateway keeps it). */
export const lowerCaseHeaders = (event: Pick<APIGatewayProxyEvent, 'headers'>): Record<string, string> =>
  Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v ?? '']));

/** The form a client's own X-Request-ID must have to be echoed and logged; openapi.yaml declares it. */
export const requestIdLength = { min: 8, max: 128 } as const;
export const requestIdPattern = new RegExp(`^[A-Za-z0-9._:-]{${requestIdLength.min},${requestIdLength.max}}$`);

/** A client's own X-Request-ID is kept when it is safe to echo and log; else the gateway's. */
export function requestIdOf(event: APIGatewayProxyEvent): string {
  const incoming = headerValue(event, 'x-request-id');
  return incoming && requestIdPattern.test(incoming) ? incoming : event.requestContext.requestId;
}

/** The absolute URL the client called, query included: the base of list links. */
export function absoluteUrl(event: APIGatewayProxyEvent): URL {
  const proto = headerValue(event, 'x-forwarded-proto') === 'http' ? 'http' : 'https';
  const path = event.requestContext.path ?? event.path;
  let url: URL;
  try {
    url = new URL(`${proto}://${headerValue(event, 'host') ?? event.requestContext.domainName}${path}`);
  } catch {
    // A Host header no URL can hold (only possible locally: API Gateway sets its own).
    url = new URL(`${proto}://${event.requestContext.domainName ?? 'localhost'}${path}`);
  }
  for (const [key, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    for (const value of values ?? []) url.searchParams.append(key, value);
  }
  return url;
}

/** API Gateway's own host for a REST API, where the stage is the first part of every path. */
const executeApiHost = /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/**
 * The base of links in mail: what the process was given (the local runner: its own origin),
 * else configured, else where API Gateway says this API lives (its execute-api host and the
 * stage, or a custom domain, which maps the stage at its root); never the client's Host header.
 */
export function publicBaseUrl(event: APIGatewayProxyEvent, given: (() => string) | undefined): string {
  const { domainName, stage } = event.requestContext;
  const fromGateway = () => `https://${domainName}${executeApiHost.test(domainName ?? '') ? `/${stage}` : ''}`;
  return given?.() ?? config().PUBLIC_BASE_URL ?? fromGateway();
}
