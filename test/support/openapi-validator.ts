import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { matchRoute } from '#core/http/route-match';
import { documentedPath, type Route } from '#core/http/route-types';
import { routes } from '#routes';
import { openapiDocument } from './openapi-document.ts';

/**
 * Checks an answer against the committed openapi.yaml: the operation found as the gateway finds
 * it, the status declared, the body and required headers as declared; an unknown path answers
 * as `unmatchedHandler` does.
 */
export interface ContractAnswer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON (an HTML page as its text); undefined when it was empty. */
  body: unknown;
}

interface ResponseObject {
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, unknown>;
}

// Jest runs from the project's root, as npm test does.
const document = openapiDocument();
const documentId = 'openapi.yaml';

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema(document, documentId);

/** `{base_url}/api/v1`: the document's own prefix of the versioned routes. */
const prefix = new URL((document.servers[0].url as string).replace('{base_url}', 'http://x')).pathname;

const pointer = (...segments: string[]) => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

const validators = new Map<string, ValidateFunction>();
function validatorAt(path: string): ValidateFunction {
  let validate = validators.get(path);
  if (!validate) validators.set(path, (validate = ajv.compile({ $ref: `${documentId}#/${path}` })));
  return validate;
}

const headerName = (ref: string) => ref.split('/').pop()!;

const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `  ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');

/** What a fallback answer of a path no route serves (or serves with another method) must be. */
function fallbackProblems(found: ReturnType<typeof matchRoute>, answer: ContractAnswer): string[] {
  const [status, schema, header] =
    found.kind === 'wrong-method' ? [405, 'MethodNotAllowedError', 'Allow'] : [404, 'EndpointNotFoundError', undefined];
  if (answer.status !== status) return [`expected the fallback's ${status}, got ${answer.status}`];
  const problems: string[] = [];
  if (header && !answer.headers.has(header)) problems.push(`header ${header} is missing`);
  if (!answer.headers.has('X-Request-ID')) problems.push('header X-Request-ID is missing');
  const validate = validatorAt(pointer('components', 'schemas', schema));
  if (!validate(answer.body)) problems.push(`body does not match ${schema}:\n${describeErrors(validate.errors)}`);
  return problems;
}

function operationProblems(route: Route, method: string, answer: ContractAnswer): string[] {
  const path = documentedPath(route.path);
  const at = ['paths', path, method.toLowerCase(), 'responses', String(answer.status)];
  const response = document.paths[path][method.toLowerCase()].responses[answer.status] as ResponseObject | undefined;
  if (!response) return [`status ${answer.status} is not declared`];
  const problems: string[] = [];
  for (const { $ref } of Object.values(response.headers ?? {})) {
    const name = headerName($ref);
    if (document.components.headers[name].required && !answer.headers.has(name)) problems.push(`header ${name} is missing`);
  }
  if (!response.content) {
    if (answer.body !== undefined) problems.push(`a body came where none is declared: ${JSON.stringify(answer.body).slice(0, 200)}`);
    return problems;
  }
  const contentType = answer.headers.get('content-type') ?? '';
  // A response may be declared as a page, as JSON, or as either (chosen by the client's Accept).
  if (response.content['text/html'] && (contentType.startsWith('text/html') || !response.content['application/json'])) {
    if (!contentType.startsWith('text/html') || typeof answer.body !== 'string')
      problems.push(`expected an HTML page, got "${contentType}"`);
    return problems;
  }
  if (!contentType.startsWith('application/json')) problems.push(`Content-Type is "${contentType}", not application/json`);
  const validate = validatorAt(pointer(...at, 'content', 'application/json', 'schema'));
  if (!validate(answer.body)) problems.push(`body does not match the declared schema:\n${describeErrors(validate.errors)}`);
  return problems;
}

/** Every way the answer departs from openapi.yaml; empty when it matches. */
export function contractProblems(method: string, url: string | URL, answer: ContractAnswer): string[] {
  const found = matchRoute(routes as readonly Route[], method, new URL(url).pathname, prefix);
  if (found.kind !== 'match') return fallbackProblems(found, answer);
  return operationProblems(found.route, method, answer);
}

/** Fails the test with the operation, the status and every problem when the answer departs from openapi.yaml. */
export function assertMatchesContract(method: string, url: string | URL, answer: ContractAnswer): void {
  const problems = contractProblems(method, url, answer);
  if (!problems.length) return;
  const found = matchRoute(routes as readonly Route[], method, new URL(url).pathname, prefix);
  const operation = found.kind === 'match' ? found.route.operationId : `fallback (${found.kind})`;
  throw new Error(
    `${method} ${url} answered ${answer.status}, outside openapi.yaml (${operation}):\n${problems.join('\n')}\n` +
      `body: ${JSON.stringify(answer.body)?.slice(0, 500)}`,
  );
}

/**
 * For tests that call fetch themselves (cookies, forms, redirects): the same check, given
 * the Response and its body as already read (parsed JSON, or undefined when empty).
 */
export function expectMatchesContract(method: string, url: string | URL, response: Response, body: unknown): void {
  assertMatchesContract(method, url, { status: response.status, headers: response.headers, body });
}
