import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { startDynamoDbLocal } from '#lib/local/dynamodb-local';

/** One DynamoDB Local for the whole run, each test file making its own table in it; and a folder for what files share. */
export default async function globalSetup() {
  const store = await startDynamoDbLocal('memory');
  process.env.DYNAMODB_ENDPOINT = store.endpoint;
  process.env.TEST_RUN_DIR = mkdtempSync(join(tmpdir(), 'tenant-api-test-run-'));
  (globalThis as { dynamoDbLocal?: typeof store }).dynamoDbLocal = store;
}
