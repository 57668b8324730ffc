import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { docsSession } from '#core/docs/docs-session';
import { operationPage } from '#core/docs/llms-text';
import { safeReturnPath } from '#core/docs/return-path';
import { issueTryItKey } from '#core/docs/try-it-keys';
import { resolveWorkspace } from '#core/http/acting-workspace';
import { errorAnswer } from '#core/http/error-answer';
import { httpAnswer } from '#core/http/http-answer';
import { headerValue, publicBaseUrl, requestIdOf } from '#core/http/proxy-event';
import { refuseDuringMaintenance } from '#core/operations/maintenance';
import { config } from '#core/platform/config';
import { ApiError, EndpointNotFound, MethodNotAllowed, Unauthenticated } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { contentTypeOf, isAsset, loadAsset } from './assets.ts';
import { docsPage, docsPageHeaders, loginPage } from './pages.ts';
import { docsPaths } from './routes.ts';
import { documentServedAt, renderedDocument } from './served-document.ts';

export interface DocsOptions {
  deps: () => Deps;
  /** Where clients reach the service, when the process knows better than PUBLIC_BASE_URL (the local runner). */
  publicBaseUrl?: () => string;
}

/** A request as the handlers read it. */
interface DocsRequest {
  event: APIGatewayProxyEvent;
  path: string;
  method: string;
  requestId: string;
  baseUrl: string;
  /** The path the service lives under: an API Gateway stage's `/prod`, empty locally. */
  base: string;
  deps: Deps;
}

type Answer = APIGatewayProxyResult;

const text = (request: DocsRequest, status: number, body: string, contentType: string, headers: Record<string, string> = {}): Answer =>
  httpAnswer(request.event, request.requestId, {
    status,
    html: body,
    headers: { ...docsPageHeaders, 'Content-Type': contentType, ...headers },
  });

const page = (request: DocsRequest, html: string) => text(request, 200, html, 'text/html; charset=utf-8');

const seeOther = (request: DocsRequest, location: string): Answer =>
  httpAnswer(request.event, request.requestId, { status: 303, headers: { ...docsPageHeaders, Location: location } });

function sessionOf(request: DocsRequest) {
  const { event, method } = request;
  return docsSession(request.deps, {
    method,
    cookie: headerValue(event, 'cookie'),
    xsrfToken: headerValue(event, 'x-xsrf-token'),
    sourceIp: event.requestContext.identity.sourceIp,
  });
}

/** A page for the signed-in user; without a session (or with one that ended), the login page, which comes back here. */
async function signedInPage(request: DocsRequest, html: string): Promise<Answer> {
  const signedIn = await sessionOf(request).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 401) return undefined;
    throw error;
  });
  if (signedIn) return page(request, html);
  const returnTo = encodeURIComponent(request.path);
  return seeOther(request, `${request.baseUrl}${docsPaths.login}?return=${returnTo}`);
}

async function asset(request: DocsRequest, name: string): Promise<Answer> {
  if (!isAsset(name)) throw new EndpointNotFound(request.path);
  const loaded = await loadAsset(name);
  const headers = { 'Content-Type': contentTypeOf(name), 'Cache-Control': 'public, max-age=3600', Vary: 'Accept-Encoding' };
  if (!/\bgzip\b/.test(headerValue(request.event, 'accept-encoding') ?? ''))
    return text(request, 200, loaded.text, contentTypeOf(name), headers);
  // API Gateway decodes a base64 answer to its bytes (the RestApi's binaryMediaTypes), as the local gateway does.
  return {
    ...text(request, 200, '', contentTypeOf(name), { ...headers, 'Content-Encoding': 'gzip' }),
    body: loaded.gzipped.toString('base64'),
    isBase64Encoded: true,
  };
}

/** The GET answers, by path. */
async function get(request: DocsRequest): Promise<Answer> {
  const { path, base } = request;
  const pageName = docsPaths.pages[path];
  if (pageName) return signedInPage(request, docsPage(pageName, base));
  if (path === docsPaths.login) {
    const returnTo = safeReturnPath(request.event.queryStringParameters?.return ?? undefined);
    return page(request, loginPage(returnTo, base));
  }
  if (path.startsWith(docsPaths.assets)) return asset(request, path.slice(docsPaths.assets.length));
  if (path === docsPaths.openapiJson)
    return text(request, 200, await renderedDocument('json', request.baseUrl), 'application/json', { 'Cache-Control': 'no-cache' });
  if (path === docsPaths.openapiYaml)
    return text(request, 200, await renderedDocument('yaml', request.baseUrl), 'application/yaml; charset=utf-8', {
      'Cache-Control': 'no-cache',
    });
  if (path === docsPaths.llmsIndex)
    return text(request, 200, await renderedDocument('llms', request.baseUrl), 'text/markdown; charset=utf-8');
  if (path.startsWith(docsPaths.llmsPages) && path.endsWith('.md')) {
    const markdown = operationPage(await documentServedAt(request.baseUrl), path.slice(docsPaths.llmsPages.length, -'.md'.length));
    if (markdown) return text(request, 200, markdown, 'text/markdown; charset=utf-8');
  }
  throw new EndpointNotFound(path);
}

/** POST /api/docs/try-it-key: the session (with its XSRF token) gets a fresh test key of its user's. */
async function tryItKey(request: DocsRequest): Promise<Answer> {
  const principal = await sessionOf(request);
  if (!principal) throw new Unauthenticated('Log in first: the try-it key is for a signed-in web session.');
  // What dispatch checks before any route that writes: the maintenance switch, then the workspace's state (403 suspended, 402 unpaid).
  await refuseDuringMaintenance(request.deps, {});
  await resolveWorkspace(request.deps, principal, undefined);
  const key = await issueTryItKey(request.deps, principal);
  return httpAnswer(request.event, request.requestId, { status: 201, body: { data: key }, headers: docsPageHeaders });
}

async function answer(request: DocsRequest): Promise<Answer> {
  // Switched off, none of it exists: the same 404 as any unknown path.
  if (!config().DOCUMENTATION_ENABLED) throw new EndpointNotFound(request.path);
  if (request.path === docsPaths.tryItKey) {
    if (request.method !== 'POST') throw new MethodNotAllowed(request.method, request.path, ['POST']);
    return tryItKey(request);
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') throw new MethodNotAllowed(request.method, request.path, ['GET', 'HEAD']);
  return get(request);
}

/**
 * The documentation function's HTTP side: the pages, their assets, the document and
 * llms.txt. It answers every method of its paths itself (404 and 405 in the envelope), and
 * checks the web session itself, as a missing one is a redirect to the login page, not a 401.
 */
export function docsHandler(options: DocsOptions) {
  return async (event: APIGatewayProxyEvent): Promise<Answer> => {
    const requestId = requestIdOf(event);
    const baseUrl = publicBaseUrl(event, options.publicBaseUrl);
    const request: DocsRequest = {
      event,
      path: event.path,
      method: event.httpMethod,
      requestId,
      baseUrl,
      base: new URL(baseUrl).pathname.replace(/\/$/, ''),
      deps: options.deps(),
    };
    try {
      const result = await answer(request);
      return event.httpMethod === 'HEAD' ? { ...result, body: '', isBase64Encoded: false } : result;
    } catch (error) {
      return httpAnswer(event, requestId, errorAnswer(error, requestId));
    }
  };
}
