import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { bcryptHasher, createDeps, type DepsOverrides, type OwnedDeps } from '#core/adapters/create-deps';
import type { Clock } from '#core/platform/clock';
import type { Hasher } from '#core/ports/deps';
import { processSecretKeys, webhookSecretBox } from '#core/webhooks/secret-box';
import { ensureTable } from '#lib/local/table-setup';

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2026-01-01T00:00:00Z')): Clock & { advance(ms: number): void } {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
}

/**
 * bcrypt at its lowest cost (4) for the tests' runners and deps: the same algorithm and hash
 * format as the spec's cost 10 at a sixty-fourth of the CPU, which the suite would otherwise
 * spend mostly hashing. Tests of the stored hashes use `bcryptHasher`, the production one.
 */
export const testHasher: Hasher = {
  hash: (plain) => bcrypt.hash(plain, 4),
  compare: (plain, hash) => bcrypt.compare(plain, hash),
};

/** A hasher that counts bcrypt verifications (the production hasher, cost 10). */
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

export type TestDeps = OwnedDeps;

/** The shared DynamoDB Local of the run, started by jest's global setup. */
export function sharedEndpoint(): string {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('DYNAMODB_ENDPOINT is not set: run the tests with jest (global setup starts DynamoDB Local)');
  return endpoint;
}

/**
 * Dependencies over `tableName` of the shared DynamoDB Local (the table must exist), with the
 * process's key of webhook secrets, which a local runner of the test on `DATA_DIR=memory` shares,
 * and the tests' cheap bcrypt.
 */
export const depsOnTable = (tableName: string, overrides: DepsOverrides = {}): OwnedDeps =>
  createDeps(
    { DYNAMODB_ENDPOINT: sharedEndpoint(), TABLE_NAME: tableName, AWS_REGION: 'us-east-1' },
    { hasher: testHasher, webhookSecrets: webhookSecretBox(processSecretKeys()), ...overrides },
  );

/** Dependencies over a fresh table of the shared DynamoDB Local, so test files never meet. */
export async function testDeps(overrides: DepsOverrides = {}): Promise<TestDeps> {
  const deps = depsOnTable(testTableName(), overrides);
  await ensureTable(deps.client, deps.tableName);
  return deps;
}
