import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { secretKeyList } from '#core/platform/webhook-settings';
import { generateSecretKey, processSecretKeys } from '#core/webhooks/secret-box';

/** The file in DATA_DIR that holds the local runner's webhook secret keys, in the form of WEBHOOK_SECRET_KEYS. */
export const secretKeysFile = 'webhook-secret-keys';

/**
 * The keys the local runner seals webhook secrets with when WEBHOOK_SECRET_KEYS is unset:
 * kept in DATA_DIR beside the store, so that the endpoints stored there still sign after a
 * restart (made on first start, readable by its owner only); with DATA_DIR=memory, whose
 * store is gone at stop, the process's own.
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
