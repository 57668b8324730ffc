import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { operationOf } from '#core/http/dispatch';
import { httpHandler } from '#core/http/http-handler';
import type { PublicRoute } from '#core/http/route-types';
import type { HandlersFor } from '#core/http/types';
import { storelessDeps } from '../support/storeless-deps.ts';

/**
 * What reaches a handler is Unicode text, however API Gateway or the local gateway decoded
 * the request: bodies come as base64 bytes and are read as strict UTF-8; a lone surrogate in
 * a path parameter, query parameter or header is refused like one in a body.
 */
describe('the text a handler sees', () => {
  const params = z.object({ id: z.string() });
  const query = z.object({ q: z.optional(z.string()) });
  const body = z.object({ text: z.string() });
  const route = {
    operationId: 'echo',
    method: 'POST',
    path: '/echo/{id}',
    auth: 'none',
    summary: 'Echoes what it was given',
    tag: 'test',
    params,
    query,
    body,
    responses: { 200: { description: 'What it was given.', schema: z.object({ params, query, body }) } },
  } as const satisfies PublicRoute;
  const handlers: HandlersFor<typeof route> = {
    echo: async (request) => ({
      status: 200,
      body: { params: request.params, query: request.query, body: request.body },
    }),
  };
  const handler = httpHandler({ operations: [operationOf(route, handlers.echo)], deps: storelessDeps });

  const event = (changes: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent =>
    ({
      resource: '/api/v1/echo/{id}',
      path: '/api/v1/echo/x',
      httpMethod: 'POST',
      headers: { 'Content-Type': 'application/json' },
      multiValueHeaders: { 'Content-Type': ['application/json'] },
      pathParameters: { id: 'x' },
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      body: Buffer.from('{"text":"é"}').toString('base64'),
      isBase64Encoded: true,
      requestContext: { requestId: 'req-1', identity: { sourceIp: '127.0.0.1' }, domainName: 'localhost', stage: 'local' },
      ...changes,
    }) as unknown as APIGatewayProxyEvent;
  const answer = async (changes: Partial<APIGatewayProxyEvent> = {}) => {
    const result = await handler(event(changes));
    return { status: result.statusCode, body: JSON.parse(result.body) };
  };

  it('reads a base64 body as UTF-8, and a body handed over as text as it is', async () => {
    expect((await answer()).body.body).toEqual({ text: 'é' });
    expect((await answer({ body: '{"text":"é"}', isBase64Encoded: false })).body.body).toEqual({ text: 'é' });
  });

  it('refuses base64 bytes that are not UTF-8 with 400 INVALID_FORMAT', async () => {
    const refused = await answer({ body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]).toString('base64') });
    expect([refused.status, refused.body.error_code, refused.body.message]).toEqual([
      400,
      'INVALID_FORMAT',
      'The body is not valid UTF-8.',
    ]);
  });

  it('refuses a lone surrogate in a path parameter, a query parameter or a header, naming it', async () => {
    const cases: [Partial<APIGatewayProxyEvent>, string][] = [
      [{ pathParameters: { id: 'x\ud800' } }, 'id'],
      [{ queryStringParameters: { q: '\udc00' }, multiValueQueryStringParameters: { q: ['\udc00'] } }, 'q'],
      [{ queryStringParameters: { 'k\ud800': 'v' }, multiValueQueryStringParameters: { 'k\ud800': ['v'] } }, 'k\\ud800'],
      [{ headers: { 'Content-Type': 'application/json', 'X-Note': 'a\ud800' }, multiValueHeaders: { 'X-Note': ['a\ud800'] } }, 'X-Note'],
    ];
    for (const [changes, name] of cases) {
      const refused = await answer(changes);
      expect([refused.status, refused.body.error_code, Object.keys(refused.body.errors)]).toEqual([400, 'INVALID_FORMAT', [name]]);
      expect(refused.body.message).toContain(`"${name}"`);
    }
    const paired = await answer({
      pathParameters: { id: '😀' },
      queryStringParameters: { q: '😀' },
      multiValueQueryStringParameters: { q: ['😀'] },
    });
    expect([paired.status, paired.body.params, paired.body.query]).toEqual([200, { id: '😀' }, { q: '😀' }]);
  });
});
