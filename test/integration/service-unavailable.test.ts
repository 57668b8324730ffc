import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { callWith, dispatch, operationsOf } from '#core/http/dispatch';
import { commitOrThrow } from '#core/store/conditions';
import { authorize } from '../../functions/authorizer/authorize.ts';
import { workspacesFunction } from '../../functions/workspaces/definition.ts';
import { type TestDeps, testDeps } from '../support/deps.ts';
import { ownerPrincipal } from '../support/principals.ts';

/**
 * DynamoDB throttling past the SDK's own retries cannot be caused locally: a client that
 * throws the SDK's error stands in for it. The answer is 503 SERVICE_UNAVAILABLE with
 * Retry-After, where any other fault of ours is a 500.
 */
let deps: TestDeps;
beforeAll(async () => {
  deps = await testDeps();
});
afterAll(() => deps.close());

/** Every call to the table fails with `error` while `run` runs. */
async function whileTheTableFails<T>(error: Error, run: () => Promise<T>): Promise<T> {
  const send = jest.spyOn(deps.client, 'send').mockImplementation(async () => {
    throw error;
  });
  try {
    return await run();
  } finally {
    send.mockRestore();
  }
}

const throttled = () =>
  new ProvisionedThroughputExceededException({
    message: 'The level of configured provisioned throughput for the table was exceeded.',
    $metadata: {},
  });
const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });

const listWorkspaces = operationsOf(workspacesFunction).find((operation) => operation.route.operationId === 'listWorkspaces')!;
const origin = {
  requestId: 'req-1',
  sourceIp: '127.0.0.1',
  url: new URL('http://localhost/api/v1/workspaces'),
  baseUrl: 'http://localhost',
};
const listed = () =>
  dispatch(listWorkspaces, callWith({ path: '/api/v1/workspaces', params: {}, query: {}, headers: {} }), {
    principal: ownerPrincipal(1, 'wks_01J0000000000000000000000A'),
    deps,
    origin,
  });

describe('a table that keeps refusing', () => {
  it.each([
    ['throttling past the retries', throttled],
    ['out of reach', unreachable],
  ])('answers %s with 503 SERVICE_UNAVAILABLE and Retry-After', async (_, error) => {
    const answer = await whileTheTableFails(error(), listed);
    expect(answer.status).toBe(503);
    expect(answer.headers).toEqual({ 'Retry-After': '5' });
    expect(answer.body).toMatchObject({ error: 'service_unavailable', error_code: 'SERVICE_UNAVAILABLE', retry_after: 5 });
  });

  it('still answers any other fault of ours with 500 INTERNAL_ERROR', async () => {
    const answer = await whileTheTableFails(new TypeError('a bug'), listed);
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ error_code: 'INTERNAL_ERROR' });
  });

  it("hands the authorizer's verdict on as 503, rather than failing into API Gateway's 500", async () => {
    const event = {
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:us-east-1:1:api/prod/GET/api/v1/workspaces',
      httpMethod: 'GET',
      headers: { Authorization: 'Bearer sk_live_AbCdEfGhAbCdEfGhAbCdEfGhAbCdEfGh' },
      queryStringParameters: null,
      requestContext: { identity: { sourceIp: '127.0.0.1' } },
    } as unknown as APIGatewayRequestAuthorizerEvent;
    const verdict = await whileTheTableFails(throttled(), () => authorize(deps, event));
    expect(JSON.parse(String(verdict.context!.authError))).toMatchObject({ status: 503, errorCode: 'SERVICE_UNAVAILABLE' });
  });

  it('answers a transaction that keeps conflicting with concurrent writes, past its retries, with 503 and Retry-After: 1', async () => {
    const conflict = async () => ({ canceled: true, data: [{ code: 'TransactionConflict' }] });
    await expect(commitOrThrow(conflict)).rejects.toMatchObject({
      status: 503,
      errorCode: 'SERVICE_UNAVAILABLE',
      headers: { 'Retry-After': '1' },
    });
  });
});
