import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { isPreflight, preflightAnswer } from '#core/http/cors';
import { envelopeMiddleware, requestIdOf } from '#core/http/envelope-middleware';
import { requestLog } from '#core/http/request-log';
import { matchRoute } from '#core/http/route-match';
import { config } from '#core/platform/config';
import { EndpointNotFound, MethodNotAllowed } from '#core/platform/errors';
import { routes } from '#routes';

/**
 * Answers what no route does: API Gateway sends here every method a resource does not
 * define (405 with Allow, or a CORS preflight's answer) and every path no resource
 * matches (404 with requested_path).
 */
export const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
  .use(requestLog())
  .use(envelopeMiddleware())
  .handler(async (event) => {
    const found = matchRoute(routes, event.httpMethod, event.path, config().API_PREFIX);
    if (found.kind === 'wrong-method' && isPreflight(event)) return preflightAnswer(event, found.allowed, requestIdOf(event));
    if (found.kind === 'wrong-method') throw new MethodNotAllowed(event.httpMethod, event.path, found.allowed);
    throw new EndpointNotFound(event.path);
  });
