import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationFailed } from '#core/platform/errors';

/**
 * The query string as one value per parameter. API Gateway keeps only the last value of a
 * repeated parameter in `queryStringParameters`, which would silently drop what the client
 * meant (`?sort=name&sort=-created_at`): a repeat is a 422 that names the parameter instead.
 */
export function singleValuedQuery(event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>) {
  const repeated = Object.entries(event.multiValueQueryStringParameters ?? {}).filter(([, values]) => (values?.length ?? 0) > 1);
  if (repeated.length) {
    throw new ValidationFailed(
      Object.fromEntries(repeated.map(([name]) => [name, ['is given more than once; give it once (lists are comma-separated)']])),
    );
  }
  return event.queryStringParameters ?? {};
}
