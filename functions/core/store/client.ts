import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '#core/platform/config';

/**
 * One DynamoDB client per process, created at module scope by the callers so that a warm
 * Lambda reuses its connections. A configured endpoint means DynamoDB Local, which takes
 * any credentials.
 */
export function createDocumentClient(cfg: Pick<Config, 'AWS_REGION' | 'DYNAMODB_ENDPOINT'>): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: cfg.AWS_REGION,
    ...(cfg.DYNAMODB_ENDPOINT ? { endpoint: cfg.DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  // The SDK's logger middleware makes a filtered copy of every input and output for its logger,
  // which by default discards them: a few percent of each call's CPU. This client has no logger.
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
