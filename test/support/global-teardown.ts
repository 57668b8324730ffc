import type { DynamoDbLocal } from '#lib/local/dynamodb-local';

export default async function globalTeardown() {
  await (globalThis as { dynamoDbLocal?: DynamoDbLocal }).dynamoDbLocal?.stop();
}
