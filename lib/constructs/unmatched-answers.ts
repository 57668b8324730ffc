import { ContentHandling, type MethodResponse, MockIntegration, PassthroughBehavior } from 'aws-cdk-lib/aws-apigateway';
import { anyOriginPreflight, originGrant, originPreflight, originRefused } from '#core/http/cors';
import type { ServedMethod } from '#core/http/route-match';
import { type Route, routePath } from '#core/http/route-types';
import { errorEnvelope } from '#core/platform/error-envelope';
import { EndpointNotFound, MethodNotAllowed } from '#core/platform/errors';

/** A resource API Gateway answers itself for what no route there takes. */
export interface UnmatchedResource {
  /** Its path as API Gateway has it, prefix included: `/api/v1/posts/{id}`, `/{proxy+}`. */
  template: string;
  /** The methods its routes serve: none on a resource that only leads to others, or on the catch-all. */
  allowed: readonly ServedMethod[];
  /** Every route there takes any origin (the pixel's): a preflight is granted as the function grants it. */
  anyOrigin: boolean;
}

/**
 * Every resource of the route table and every one on the way to it (a wrong method there
 * answers 405 with Allow, a bare prefix 404), and `{proxy+}` at the root for the paths no
 * resource matches (404).
 */
export function unmatchedResourcesOf(prefix: string, routes: readonly Route[]): UnmatchedResource[] {
  const routesAt = new Map<string, Route[]>([['/{proxy+}', []]]);
  const at = (template: string) => routesAt.get(template) ?? routesAt.set(template, []).get(template)!;
  for (const route of routes) {
    const segments = routePath(route, prefix).split('/').filter(Boolean);
    for (let depth = 0; depth < segments.length; depth++) at(`/${segments.slice(0, depth).join('/')}`);
    at(`/${segments.join('/')}`).push(route);
  }
  return [...routesAt].map(([template, here]) => ({
    template,
    allowed: here.flatMap((route): ServedMethod[] => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])),
    anyOrigin: here.length > 0 && here.every((route) => route.cors === 'any-origin'),
  }));
}

/** What the functions' answers depend on, as they read it from their configuration. */
export interface UnmatchedSettings {
  /** CORS_ALLOWED_ORIGINS, parsed: origins, or `*`. */
  corsAllowedOrigins: readonly string[];
  /** API_PREFIX, and the deprecation headers the functions add to answers under it. */
  prefix: string;
  deprecationHeaders: Record<string, string>;
}

/** A Velocity reference in its formal notation, which no text next to it can lengthen. */
const ref = (name: string) => `\${${name}}`;
// API Gateway fills these in; `$origin`, `$asked`, `$grant` and `$path` are set at the template's top.
const placeholders = { requestId: '$context.requestId', timestamp: '$context.requestTime' };

/**
 * A value read from the request, as text inside a JSON string: escapeJavaScript also
 * escapes `'`, which JSON does not know, so that escape is undone (a literal replace: in
 * API Gateway's Velocity, `"\'"` is those two characters).
 */
const jsonText = (expression: string) => `$util.escapeJavaScript(${expression}).replace("\\'", "'")`;

/** The request's path, from the resource's template and its path parameters (API Gateway's event.path, without the stage). */
function requestedPath(template: string): string {
  const parts = template.replace(/\{(\w+)\+?\}/g, (_, name: string) => ref(paramVariable(name)));
  const params = [...template.matchAll(/\{(\w+)\+?\}/g)].map(
    ([, name]) => `#set($${paramVariable(name!)} = ${jsonText(`$input.params().path.get("${name}")`)})`,
  );
  return [...params, `#set($path = "${parts}")`].join('\n');
}
const paramVariable = (name: string) => `param_${name}`;

/**
 * A string literal of Velocity: in single quotes, as written (a Link header holds double
 * quotes); in double quotes where it names the template's variables. Neither has escapes.
 */
function literal(value: string): string {
  const quote = value.includes('$') ? '"' : "'";
  if (value.includes(quote)) throw new Error(`A header value cannot hold ${quote} here: ${value}`);
  return `${quote}${value}${quote}`;
}

/** Each header as a response override; values may name the template's variables. */
const overrides = (headers: Record<string, string>) =>
  Object.entries(headers)
    .filter(([name]) => name !== 'X-Request-ID')
    .map(([name, value]) => `#set($context.responseOverride.header.${name} = ${literal(value)})`)
    .join('\n');

/** Headers are looked up whatever their case, as the functions do (proxy-event.ts headerValue). */
const readHeaders = `#set($origin = "")
#set($asked = "")
#set($headers = $input.params().header)
#foreach($name in $headers.keySet())
#if($name.toLowerCase() == "origin")#set($origin = $headers.get($name))#end
#if($name.toLowerCase() == "access-control-request-method")#set($asked = $headers.get($name))#end
#end`;

/** `$grant`: the Access-Control-Allow-Origin the functions would give this Origin (cors.ts allowOriginFor), or empty. */
function grantFor(origins: readonly string[]): string {
  if (!origins.length) return '#set($grant = "")';
  if (origins.includes('*')) return '#set($grant = "")\n#if($origin != "")#set($grant = "*")#end';
  const listed = origins.map((origin) => `$origin == "${origin}"`).join(' || ');
  return `#set($grant = "")\n#if(${listed})#set($grant = $origin)#end`;
}

/** The CORS headers of an answer that is not a preflight (cors.ts corsHeaders). */
function corsOverrides(origins: readonly string[]): string {
  if (!origins.length) return '';
  return `${overrides({ Vary: 'Origin' })}\n#if($grant != "")\n${overrides(originGrant('$grant'))}\n#end`;
}

/** The deprecation notice of an answer under the prefix (deprecation.ts deprecationHeadersFor). */
function deprecationOverrides({ prefix, deprecationHeaders }: UnmatchedSettings): string {
  if (!Object.keys(deprecationHeaders).length) return '';
  return `#if($path == "${prefix}" || $path.startsWith("${prefix}/"))\n${overrides(deprecationHeaders)}\n#end`;
}

const envelope = (error: Parameters<typeof errorEnvelope>[0]) => JSON.stringify(errorEnvelope(error, placeholders));

/** A browser's preflight (cors.ts isPreflight): granted as the functions grant it, or refused 403 in the envelope. */
function preflight(resource: UnmatchedResource, settings: UnmatchedSettings): string {
  const granted = (headers: Record<string, string>) => `#set($context.responseOverride.status = 204)\n${overrides(headers)}`;
  const answer = resource.anyOrigin
    ? granted(anyOriginPreflight(resource.allowed, '').headers as Record<string, string>)
    : `#if($grant != "")\n${granted(originPreflight('$grant', resource.allowed, '').headers as Record<string, string>)}
#else
#set($context.responseOverride.status = 403)
#set($shown = $origin)
#if($shown.length() > 200)#set($shown = $shown.substring(0, 200))#end
#set($shown = ${jsonText('$shown')})
${deprecationOverrides(settings)}
${corsOverrides(settings.corsAllowedOrigins)}
${envelope(originRefused(ref('shown')))}
#end`;
  return `#if($context.httpMethod == "OPTIONS" && $origin != "" && $asked != "")\n${answer}\n#else`;
}

/**
 * The Velocity template of the answer: what the local runner's `unmatchedHandler` answers for
 * the same request (404 where no route is, 405 with Allow where routes are, a preflight's
 * answer).
 */
function unmatchedTemplate(resource: UnmatchedResource, settings: UnmatchedSettings): string {
  const origins = settings.corsAllowedOrigins;
  const refusal = resource.allowed.length
    ? `${overrides({ Allow: resource.allowed.join(', ') })}\n${envelope(new MethodNotAllowed(ref('context.httpMethod'), ref('path'), resource.allowed))}`
    : envelope(new EndpointNotFound(ref('path')));
  const lines = [readHeaders, grantFor(origins), requestedPath(resource.template)];
  // Every answer but a granted preflight's carries the deprecation notice (http-answer.ts).
  const answer = [deprecationOverrides(settings), corsOverrides(origins), refusal];
  if (!resource.allowed.length) return [...lines, ...answer].filter(Boolean).join('\n');
  return [...lines, preflight(resource, settings), ...answer, '#end'].filter(Boolean).join('\n');
}

/** The status of the answer unless the template overrides it (a preflight's 204 or 403). */
const unmatchedStatus = (resource: UnmatchedResource) => (resource.allowed.length ? '405' : '404');

const staticHeaders = {
  'method.response.header.X-Request-ID': 'context.requestId',
  'method.response.header.Cache-Control': "'no-store'",
};

/**
 * Bodies a MOCK answer can take by media type: one passed through would make it fail with a
 * 500, so any other type is refused with 415 in the envelope (no Content-Type counts as JSON).
 */
export const unmatchedBodyTypes = [
  'application/json',
  'text/plain',
  'text/html',
  'text/xml',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/octet-stream',
  'application/yaml',
] as const;

/** API Gateway's own answer: a MOCK integration, no function, whose one response renders the template. */
export function unmatchedIntegration(resource: UnmatchedResource, settings: UnmatchedSettings): MockIntegration {
  return new MockIntegration({
    // Every body reaches API Gateway as binary (binaryMediaTypes */*): as text the request template applies.
    contentHandling: ContentHandling.CONVERT_TO_TEXT,
    passthroughBehavior: PassthroughBehavior.NEVER,
    requestTemplates: Object.fromEntries(unmatchedBodyTypes.map((type) => [type, '{"statusCode": 200}'])),
    integrationResponses: [
      {
        statusCode: unmatchedStatus(resource),
        responseParameters: staticHeaders,
        responseTemplates: { 'application/json': unmatchedTemplate(resource, settings) },
      },
    ],
  });
}

/** The statuses the method may answer, with the headers mapped onto every one. */
export function unmatchedMethodResponses(resource: UnmatchedResource): MethodResponse[] {
  const statuses = resource.allowed.length ? ['405', '204', '403'] : ['404'];
  const responseParameters = Object.fromEntries(Object.keys(staticHeaders).map((header) => [header, true]));
  return statuses.map((statusCode) => ({ statusCode, responseParameters }));
}
