process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { startDynamoDbLocal } from '#lib/local/dynamodb-local';

/** One DynamoDB Local for the whole run; each test file makes its own table in it. */
export default async function globalSetup() {
  const store = await startDynamoDbLocal('memory');
  process.env.DYNAMODB_ENDPOINT = store.endpoint;
  (globalThis as { dynamoDbLocal?: typeof store }).dynamoDbLocal = store;
}
