import * as z from 'zod/mini';
import { operationOf } from '#core/http/dispatch';
import { httpHandler } from '#core/http/http-handler';
import type { PublicRoute } from '#core/http/route-types';
import type { HandlersFor } from '#core/http/types';
import { proxyEvent } from '#lib/local/proxy-event';
import { storelessDeps } from '../support/storeless-deps.ts';

/** The base of links in mail (ApiRequest.baseUrl): what the process says, else API Gateway's domain and stage; never the client's Host. */
describe('the public base URL a handler sees', () => {
  const route = {
    operationId: 'echoBase',
    method: 'GET',
    path: '/echo-base',
    auth: 'none',
    summary: 'Echoes the base URL',
    tag: 'test',
    responses: { 200: { description: 'The base URL.', schema: z.object({ data: z.object({ base: z.string() }) }) } },
  } as const satisfies PublicRoute;
  const handlers: HandlersFor<typeof route> = {
    echoBase: async (request) => ({ status: 200, body: { data: { base: request.baseUrl } } }),
  };
  const deps = storelessDeps;
  const event = (domainName = 'abc123.execute-api.eu-west-1.amazonaws.com') => {
    const built = proxyEvent(
      {
        method: 'GET',
        path: '/api/v1/echo-base',
        headers: { Host: 'attacker.example' },
        multiValueHeaders: {},
        query: null,
        multiValueQuery: null,
        body: null,
        sourceIp: '127.0.0.1',
      },
      '/api/v1/echo-base',
      null,
      null,
    );
    return {
      ...built,
      requestContext: { ...built.requestContext, domainName, stage: 'prod' },
    };
  };
  const baseOf = async (publicBaseUrl?: () => string, domainName?: string) => {
    const handler = httpHandler({ operations: [operationOf(route, handlers.echoBase)], deps, ...(publicBaseUrl ? { publicBaseUrl } : {}) });
    const answer = await handler(event(domainName));
    return JSON.parse(answer.body).data.base;
  };

  it('is what the process gives (the local runner: its origin), whatever the Host header', async () => {
    expect(await baseOf(() => 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
  });

  it("is API Gateway's domain and stage when nothing is given or configured", async () => {
    expect(await baseOf()).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/prod');
  });

  it('is the custom domain alone when the request came through one: it maps the stage at its root', async () => {
    expect(await baseOf(undefined, 'api.example.org')).toBe('https://api.example.org');
  });
});
