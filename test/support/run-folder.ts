import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A folder of this test run, under the one jest's global setup makes (TEST_RUN_DIR) and its
 * teardown removes: for what test files build once and share within a run.
 */
export function runFolder(name: string): string {
  const root = process.env.TEST_RUN_DIR;
  if (!root) throw new Error('TEST_RUN_DIR is not set: run the tests with jest (global setup makes it)');
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  return folder;
}
