import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { secretKeyList } from '#core/platform/webhook-settings';
import { generateSecretKey, processSecretKeys } from '#core/webhooks/secret-box';

/** The file in DATA_DIR that holds the local runner's webhook secret keys, in the form of WEBHOOK_SECRET_KEYS. */
export const secretKeysFile = 'webhook-secret-keys';

/**
 * The runner's webhook secret keys when none are given: kept in DATA_DIR (owner-readable), so
 * stored endpoints still sign after a restart; per process with DATA_DIR=memory.
 */
export function localSecretKeys(dataDir: string): string[] {
  if (dataDir === 'memory') return processSecretKeys();
  const file = join(resolve(dataDir), secretKeysFile);
  mkdirSync(resolve(dataDir), { recursive: true });
  try {
    // `wx`: of two runners starting on one folder, the second reads what the first wrote.
    writeFileSync(file, `${generateSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const parsed = secretKeyList.safeParse(readFileSync(file, 'utf8').trim());
  if (!parsed.success) throw new Error(`${file} must hold WEBHOOK_SECRET_KEYS: comma-separated keys of at least 32 characters each.`);
  return parsed.data;
}
