import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Principal } from '#core/access/principal';
import { encodeVerdict } from '#core/http/authorizer-context';
import { httpHandler } from '#core/http/http-handler';
import { logRequest } from '#core/http/request-log';
import type { CredentialRoute } from '#core/http/route-types';
import type { ApiResponse } from '#core/http/types';
import { storelessDeps } from '../support/storeless-deps.ts';

const secrets = {
  key: 'sk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  cookie: 'session=7f3c9a0b1d2e4f5a6b7c8d9e0f1a2b3c',
  password: 'correct horse battery staple',
};

const principal: Principal = {
  userId: 7,
  workspaceId: 'wks_01J0000000000000000000000A',
  role: 'owner',
  environment: 'live',
  scopes: ['*'],
  tier: 'pro',
  credential: { type: 'api_key', id: 'key_01J0000000000000000000000B' },
};

const event = {
  httpMethod: 'POST',
  resource: '/api/v1/workspaces/{id}',
  path: '/api/v1/workspaces/wks_01J0000000000000000000000A',
  headers: {
    Authorization: `Bearer ${secrets.key}`,
    Cookie: secrets.cookie,
    'X-Request-ID': 'req-12345678',
    'Content-Type': 'application/json',
  },
  body: JSON.stringify({ password: secrets.password }),
  requestContext: { requestId: 'gw-1', identity: { sourceIp: '127.0.0.1' }, authorizer: encodeVerdict(principal) },
} as unknown as APIGatewayProxyEvent;

/** What the logger and metrics write to stdout while `run` runs, one parsed JSON object per line. */
async function captured(run: () => Promise<unknown>): Promise<Record<string, any>[]> {
  const lines: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  const error = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    write.mockRestore();
    error.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** A route at the event's resource, for the handler under test. */
const route = {
  operationId: 'touchWorkspace',
  method: 'POST',
  path: '/workspaces/{id}',
  auth: 'credential',
  scope: 'workspaces:write',
  summary: 'A route for the log to name',
  tag: 'test',
  responses: { 201: { description: 'Done.' } },
} as const satisfies CredentialRoute;

/** Made inside `captured`, because Powertools binds its console to stdout when constructed. */
const sink = () => {
  const telemetry = {
    logger: new Logger({ serviceName: 'test', logLevel: 'INFO' }),
    metrics: new Metrics({ serviceName: 'test', namespace: 'TenantApiTest' }),
  };
  return () => telemetry;
};

function handlerWith(respond: () => Promise<ApiResponse>) {
  return httpHandler({ operations: [{ route, handle: respond }], deps: storelessDeps, telemetry: sink() });
}

describe('the request log', () => {
  it('writes one line per request with request id, route, status, latency, workspace and credential type, and no secret', async () => {
    const lines = await captured(() => handlerWith(async () => ({ status: 201, body: { ok: true } }))(event));
    const logged = lines.filter((line) => line.message === 'request');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 'INFO',
      request_id: 'req-12345678',
      route: 'POST /api/v1/workspaces/{id}',
      status: 201,
      latency_ms: expect.any(Number),
      workspace_id: principal.workspaceId,
      credential_type: 'api_key',
    });
    const everything = JSON.stringify(lines);
    for (const secret of Object.values(secrets)) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/authorization|cookie/i);
  });

  it("names the workspace the request acts in, where the client named another than the credential's home", async () => {
    const other = 'wks_01J0000000000000000000000C';
    const named = { ...event, headers: { ...event.headers, 'X-Workspace-ID': other } } as APIGatewayProxyEvent;
    const lines = await captured(async () =>
      logRequest({ event: named, requestId: 'gw-1', status: 200, startedAt: performance.now(), principal, actedIn: other }, sink()),
    );
    expect(lines.find((line) => line.message === 'request')).toMatchObject({ workspace_id: other, status: 200 });
  });

  it('logs a 5xx at ERROR with the error and its stack, and counts it by route and status class', async () => {
    const lines = await captured(() =>
      handlerWith(async () => {
        throw new Error('the store is on fire');
      })(event),
    );
    const logged = lines.find((line) => line.message === 'request')!;
    expect(logged).toMatchObject({
      level: 'ERROR',
      status: 500,
      error: { message: 'the store is on fire', stack: expect.stringContaining('request-log.test.ts') },
    });
    const metric = lines.find((line) => line._aws)!;
    expect(metric).toMatchObject({ route: 'POST /api/v1/workspaces/{id}', status_class: '5xx', Requests: 1, Latency: expect.any(Number) });
    expect(metric._aws.CloudWatchMetrics[0].Namespace).toBe('TenantApiTest');
  });

  it('names the error code of a 4xx and carries no body', async () => {
    const { ValidationFailed } = await import('#core/platform/errors');
    const lines = await captured(() =>
      handlerWith(async () => {
        throw new ValidationFailed({ password: ['must be at least 8 characters'] });
      })(event),
    );
    const logged = lines.find((line) => line.message === 'request')!;
    expect(logged).toMatchObject({ level: 'INFO', status: 422, error_code: 'VALIDATION_FAILED' });
    expect(JSON.stringify(logged)).not.toContain('password');
  });
});
