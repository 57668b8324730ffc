import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { bcryptHasher, type Deps, type Hasher } from '#core/deps';
import type { Clock } from '#core/clock';
import { createDocumentClient } from '#core/store/client';
import { createDatabase } from '#core/store/database';
import { ensureTable } from '#lib/local/table-setup';

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2026-01-01T00:00:00Z')): Clock & { advance(ms: number): void } {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
}

/** A hasher that counts bcrypt verifications. */
export function countingHasher(): Hasher & { comparisons: number } {
  const hasher = {
    comparisons: 0,
    hash: bcryptHasher.hash,
    compare: (plain: string, hash: string) => {
      hasher.comparisons++;
      return bcryptHasher.compare(plain, hash);
    },
  };
  return hasher;
}

export function testTableName(): string {
  return `test-${randomUUID()}`;
}

/** `client` is the store's document client, for tests that watch what it sends. */
export type TestDeps = Deps & { tableName: string; client: DynamoDBDocumentClient };

/** Dependencies over a fresh table of the shared DynamoDB Local, so test files never meet. */
export async function testDeps(overrides: Partial<Omit<Deps, 'db'>> = {}): Promise<TestDeps> {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('DYNAMODB_ENDPOINT is not set: run the tests with jest (global setup starts DynamoDB Local)');
  const client = createDocumentClient({ AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: endpoint });
  const tableName = testTableName();
  await ensureTable(client, tableName);
  return {
    db: createDatabase(client, tableName),
    clock: overrides.clock ?? { now: () => new Date() },
    hasher: overrides.hasher ?? bcryptHasher,
    tableName,
    client,
  };
}
