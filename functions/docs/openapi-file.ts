import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * openapi.yaml beside the function: the stack copies it into the docs bundle's folder
 * (lib/bundling.ts), as into the mcp function's; the local runner reads the repository's own.
 */
const openapiPath = process.env.LAMBDA_TASK_ROOT
  ? join(process.env.LAMBDA_TASK_ROOT, 'openapi.yaml')
  : fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

let openapiText: Promise<string> | undefined;

/** The committed openapi.yaml, read once per process. */
export const readOpenApi = (): Promise<string> => (openapiText ??= readFile(openapiPath, 'utf8'));
