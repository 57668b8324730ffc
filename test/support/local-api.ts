import type { APIGatewayProxyResult } from 'aws-lambda';
import type { DepsOverrides } from '#core/adapters/create-deps';
import type { Deps } from '#core/ports/deps';
import { parseLocalConfig } from '#lib/local/local-config';
import { directRequest } from '#lib/local/proxy-event';
import { type LocalRunner, startLocalRunner } from '#lib/local/runner';
import { depsOnTable, sharedEndpoint, testHasher, testTableName } from './deps.ts';
import { assertMatchesContract } from './openapi-validator.ts';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  // Bodies are JSON of varying shape; tests assert on them as a client would.
  body: any;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Sent as is, without JSON encoding: text as UTF-8, bytes as they are. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestApi {
  runner: LocalRunner;
  /** The bootstrap key: scope `*` in the bootstrap workspace. */
  adminKey: string;
  call(method: string, path: string, options?: CallOptions): Promise<ApiAnswer>;
  stop(): Promise<void>;
}

/**
 * How a test reaches the runner: in-process through the gateway's handler (the same
 * authorizer, function and dispatch, without a socket), or over HTTP where only HTTP can
 * show what a test checks (the contract walk, tenant isolation, headers on the wire).
 */
export type Transport = 'in-process' | 'http';

interface Sent {
  status: number;
  headers: Headers;
  text: string;
}

/** A proxy result as the local gateway's HTTP server writes it: a HEAD, 204 or 304 carries no body. */
function asReceived(method: string, result: APIGatewayProxyResult): Sent {
  const headers = new Headers();
  for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    headers.delete(name);
    for (const value of values) headers.append(name, String(value));
  }
  const empty = method === 'HEAD' || result.statusCode === 204 || result.statusCode === 304;
  const text = empty ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body;
  return { status: result.statusCode, headers, text };
}

async function send(
  runner: Pick<LocalRunner, 'handle'>,
  over: Transport,
  method: string,
  url: string,
  headers: Headers,
  body?: string | Uint8Array,
) {
  if (over === 'http') {
    const response = await fetch(url, { method, redirect: 'manual', headers, body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : (body ?? null);
  return asReceived(method, await runner.handle(directRequest(method, new URL(url), headers, bytes)));
}

/**
 * Calls the runner as a client would: JSON in and out, `defaultKey` as Bearer unless `key`
 * says otherwise, redirects answered rather than followed. Every answer is checked against
 * openapi.yaml, so a test fails on any drift between the service and its document.
 */
export function apiClient(
  runner: Pick<LocalRunner, 'baseUrl' | 'handle'>,
  defaultKey: string | undefined,
  over: Transport = 'in-process',
): TestApi['call'] {
  return async (method, path, options = {}) => {
    const key = options.key === undefined ? defaultKey : options.key;
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const url = path.startsWith('http') ? path : runner.baseUrl + path;
    const headers = new Headers({
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    });
    const { status, headers: received, text } = await send(runner, over, method, url, headers, body);
    const html = received.get('content-type')?.startsWith('text/html');
    const answer = { status, headers: received, body: text ? (html ? text : JSON.parse(text)) : undefined };
    assertMatchesContract(method, url, answer);
    return answer;
  };
}

/**
 * The local runner on a free port over a fresh table of the shared DynamoDB Local: the
 * tests talk to it over HTTP, as a client would. Its request lines stay off the test output.
 * `overrides` replace ports of the runner's dependencies (a clock the test moves); its
 * bcrypt is the tests' cheap one unless they name another.
 */
export async function startTestApi({
  overrides = {},
  over = 'in-process',
}: {
  overrides?: DepsOverrides;
  over?: Transport;
} = {}): Promise<TestApi> {
  // DATA_DIR=memory: the store is the shared one, so this only gives each runner a
  // temporary mail folder of its own, removed at stop. Its lines (one per mail) stay off
  // the test output like the request lines; tests read the folder (test/support/mailbox.ts).
  const runner = await startLocalRunner(
    parseLocalConfig({
      DYNAMODB_ENDPOINT: sharedEndpoint(),
      TABLE_NAME: testTableName(),
      PORT: '0',
      LOG_REQUESTS: '0',
      DATA_DIR: 'memory',
    }),
    { hasher: testHasher, ...overrides },
    () => {},
  );
  const adminKey = runner.bootstrap!.apiKey;
  return {
    runner,
    adminKey,
    call: apiClient(runner, adminKey, over),
    stop: () => runner.stop(),
  };
}

/**
 * startTestApi, plus the domain's dependencies over the runner's own table: for setting up
 * what no endpoint creates (OAuth clients are registered by the admin CLI).
 */
export async function startTestApiWithDeps(over: Transport = 'in-process'): Promise<TestApi & { deps: Deps }> {
  const api = await startTestApi({ over });
  const deps = depsOnTable(api.runner.tableName);
  return {
    ...api,
    deps,
    stop: async () => {
      deps.close();
      await api.stop();
    },
  };
}
