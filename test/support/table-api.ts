import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DepsOverrides } from '#core/adapters/create-deps';
import { parseLocalConfig } from '#lib/local/local-config';
import { type LocalRunner, startLocalRunner } from '#lib/local/runner';
import { depsOnTable, sharedEndpoint, testHasher, testTableName } from './deps.ts';
import { type ApiAnswer, apiClient, type CallOptions, type Transport } from './local-api.ts';

export interface TableTestApi {
  runner: LocalRunner;
  /** The table the runner stores everything in, for raw reads behind the API's back. */
  tableName: string;
  /** The bootstrap key (scope `*`); undefined when the table already had users. */
  adminKey: string | undefined;
  call(method: string, path: string, options?: CallOptions): Promise<ApiAnswer>;
  /** Every item of the table, read with a raw DynamoDB Scan (no ElectroDB in between). */
  scan(): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/**
 * Like startTestApi, but the table's name is known (and may be shared with another runner,
 * e.g. one listening on another address), so a test can read the table directly.
 */
export async function startTestApiOnTable(
  options: { tableName?: string; host?: string; overrides?: DepsOverrides; over?: Transport } = {},
): Promise<TableTestApi> {
  const tableName = options.tableName ?? testTableName();
  const runner = await startLocalRunner(
    parseLocalConfig({
      DYNAMODB_ENDPOINT: sharedEndpoint(),
      TABLE_NAME: tableName,
      PORT: '0',
      LOG_REQUESTS: '0',
      // As in startTestApi: a temporary mail folder per runner, its lines off the test output.
      DATA_DIR: 'memory',
      ...(options.host ? { HOST: options.host } : {}),
    }),
    { hasher: testHasher, ...options.overrides },
    () => {},
  );
  const adminKey = runner.bootstrap?.apiKey;
  const { client, close } = depsOnTable(tableName);
  return {
    runner,
    tableName,
    adminKey,
    call: apiClient(runner, adminKey, options.over),
    async scan() {
      const items: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }));
        items.push(...((page.Items ?? []) as Record<string, unknown>[]));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    },
    async stop() {
      close();
      await runner.stop();
    },
  };
}
