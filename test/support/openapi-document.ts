import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The committed openapi.yaml, parsed. Parsing its 1.5 MB of YAML takes over a second, and
 * most test files need it, so the first to ask keeps it as JSON, named by the YAML's digest
 * (a changed document is parsed afresh), and the others read that in milliseconds.
 */
export function openapiDocument(file = 'openapi.yaml') {
  const text = readFileSync(file, 'utf8');
  const cached = join(tmpdir(), `tenant-api-openapi-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8'));
  const document = parse(text);
  // Written aside and renamed, so that a file reading it meanwhile never sees half of it.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(document));
  renameSync(partial, cached);
  return document;
}
