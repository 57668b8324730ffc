import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { sessionHandlers } from './handlers.ts';
import { sessionRoutes } from './routes.ts';

/** The sessions function: read by its index.ts, the local runner and the CDK stack. */
export const sessionsFunction = defineRouteFunction({
  name: 'sessions',
  // Registration mails a link and makes the personal workspace with its API Gateway key; resets are mailed.
  ports: ['mailer', 'gatewayKeys'],
  routes: sessionRoutes,
  handlers: sessionHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    indexes: ['gsi1'],
  },
});
