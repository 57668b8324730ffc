import { defineRouteFunction } from '#core/adapters/function-definition';
import { runIdempotently } from '#core/http/idempotency/idempotent-requests';
import { userHandlers } from './handlers.ts';
import { userRoutes } from './routes.ts';

/** The users function: read by its index.ts, the local runner and the CDK stack. */
export const usersFunction = defineRouteFunction({
  name: 'users',
  // Invitations and email changes are mailed.
  ports: ['mailer'],
  secrets: ['cursorSigningKey'],
  routes: userRoutes,
  handlers: userHandlers,
  idempotency: runIdempotently,
  tableAccess: {
    table: ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    indexes: ['gsi1'],
  },
});
