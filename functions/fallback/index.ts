import { unmatchedHandler } from '#core/http/http-handler';
import { routes } from '#routes';

export const handler = unmatchedHandler(routes);
