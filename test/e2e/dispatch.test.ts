import { randomUUID } from 'node:crypto';
import type { Principal } from '#core/access/principal';
import type { AnyRouteFunction } from '#core/adapters/function-definition';
import { authenticate } from '#core/credentials/authenticate';
import { type CallParameters, callWith, type DispatchResult, dispatch, operationsOf } from '#core/http/dispatch';
import type { Deps } from '#core/ports/deps';
import { routeFunctions } from '../../functions/definitions.ts';
import type { LambdaFunctionName } from '../../functions/routes.ts';
import { type ApiAnswer, startTestApiWithDeps, type TestApi } from '../support/local-api.ts';

/**
 * Batch operations and MCP tools run an operation in-process through the same dispatch as
 * HTTP: the same call answers the same, refusals included.
 */
describe('an operation through dispatch and over HTTP', () => {
  let api: TestApi & { deps: Deps };
  let principal: Principal;
  let workspaceId: string;

  beforeAll(async () => {
    api = await startTestApiWithDeps();
    principal = await principalOf(api.adminKey);
    workspaceId = api.runner.bootstrap!.workspaceId;
  });
  afterAll(() => api.stop());

  const principalOf = (key: string) => authenticate(api.deps, { authorization: `Bearer ${key}`, method: 'GET', sourceIp: '127.0.0.1' });

  /** The operation of that function, called as the runner would call it for `path` (under the API's prefix, or absolute). */
  function inProcess(
    fn: LambdaFunctionName,
    operationId: string,
    path: string,
    parameters: Partial<CallParameters> & { body?: unknown },
    as: Principal | undefined,
  ): Promise<DispatchResult> {
    const definition = routeFunctions[fn] as AnyRouteFunction;
    const operation = operationsOf(definition).find((candidate) => candidate.route.operationId === operationId)!;
    const url = new URL(path.startsWith('http') ? path : api.runner.baseUrl + path);
    return dispatch(
      operation,
      callWith({ path: url.pathname, params: {}, query: Object.fromEntries(url.searchParams), headers: {}, ...parameters }),
      {
        principal: as,
        deps: api.deps,
        idempotency: definition.idempotency,
        origin: { requestId: randomUUID(), sourceIp: '127.0.0.1', url, baseUrl: api.runner.origin },
      },
    );
  }

  /** What differs between two answers by nature: the request's own id and time. */
  const comparable = (body: any) =>
    body?.meta?.request_id ? { ...body, request_id: '…', meta: { ...body.meta, request_id: '…', timestamp: '…' } } : body;

  const expectSame = (viaDispatch: DispatchResult, viaHttp: ApiAnswer) => {
    expect(viaDispatch.status).toBe(viaHttp.status);
    expect(comparable(viaDispatch.body)).toEqual(comparable(viaHttp.body));
  };

  it('reads a workspace alike', async () => {
    const path = `/workspaces/${workspaceId}`;
    const viaDispatch = await inProcess('workspaces', 'getWorkspace', path, { params: { id: workspaceId } }, principal);
    expect(viaDispatch.status).toBe(200);
    expectSame(viaDispatch, await api.call('GET', path));
  });

  it('pages a list alike, links included', async () => {
    const path = '/workspaces?per_page=1&sort=-created_at&fields=name';
    const viaDispatch = await inProcess('workspaces', 'listWorkspaces', path, {}, principal);
    expect(viaDispatch.status).toBe(200);
    expectSame(viaDispatch, await api.call('GET', path));
  });

  it('answers an unknown id with the same 404 envelope', async () => {
    const unknown = 'wks_01J00000000000000000000000';
    const path = `/workspaces/${unknown}`;
    const viaDispatch = await inProcess('workspaces', 'getWorkspace', path, { params: { id: unknown } }, principal);
    expect(viaDispatch.status).toBe(404);
    expectSame(viaDispatch, await api.call('GET', path));
  });

  it('refuses an invalid body with the same field errors, creating nothing', async () => {
    const body = { name: '', tier: 'platinum', color: 'blue' };
    const viaDispatch = await inProcess('workspaces', 'createWorkspace', '/workspaces', { body }, principal);
    expect(viaDispatch.status).toBe(422);
    expectSame(viaDispatch, await api.call('POST', '/workspaces', { body }));
  });

  it('refuses a credential without the scope alike, before reading the body', async () => {
    const created = await api.call('POST', '/api-keys', { body: { name: 'reader', scopes: ['workspaces:read'] } });
    const reader = await principalOf(created.body.data.key);
    const viaDispatch = await inProcess('workspaces', 'createWorkspace', '/workspaces', { body: { name: 'Nope' } }, reader);
    expect([viaDispatch.status, (viaDispatch.body as any).required_scope]).toEqual([403, 'workspaces:write']);
    expectSame(viaDispatch, await api.call('POST', '/workspaces', { key: created.body.data.key, body: { name: 'Nope' } }));
  });

  it('replays an Idempotency-Key whichever way the first request came', async () => {
    const key = randomUUID();
    const body = { name: 'Once through HTTP' };
    const first = await api.call('POST', '/workspaces', { body, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    const again = await inProcess('workspaces', 'createWorkspace', '/workspaces', { body, headers: { 'idempotency-key': key } }, principal);
    expect(again.headers?.['Idempotent-Replayed']).toBe('true');
    expectSame(again, first);
  });

  it('answers a public route without a principal alike', async () => {
    const body = { email: 'nobody@example.com', password: 'not the password' };
    const viaDispatch = await inProcess('sessions', 'login', `${api.runner.origin}/login`, { body }, undefined);
    expect(viaDispatch.status).toBe(401);
    expectSame(viaDispatch, await api.call('POST', `${api.runner.origin}/login`, { key: '', body }));
  });
});
