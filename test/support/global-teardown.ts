import { rmSync } from 'node:fs';
import type { DynamoDbLocal } from '#lib/local/dynamodb-local';

export default async function globalTeardown() {
  await (globalThis as { dynamoDbLocal?: DynamoDbLocal }).dynamoDbLocal?.stop();
  if (process.env.TEST_RUN_DIR) rmSync(process.env.TEST_RUN_DIR, { recursive: true, force: true });
}
