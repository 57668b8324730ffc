import { startDynamoDbLocal } from '../../lib/local/dynamodb-local.ts';
import { createDocumentClient } from '../../functions/core/store/client.ts';
import { ensureTable } from '../../lib/local/table-setup.ts';
const store = await startDynamoDbLocal('memory');
try {
  const client = createDocumentClient({ AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: store.endpoint });
  await ensureTable(client, 'smoke');
  process.env.TABLE_NAME = 'smoke';
  process.env.DYNAMODB_ENDPOINT = store.endpoint;
  const { handler } = await import('/work/main/.build/pruner/index.mjs' as string);
  console.log(await handler({}, { getRemainingTimeInMillis: () => 60000 }));
} finally {
  await store.stop();
}
