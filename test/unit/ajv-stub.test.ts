import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Lambda bundles replace `ajv` and `ajv-formats` with stubs (lib/bundle-stubs/ajv.ts):
 * sound only while the MCP SDK's Server uses its JSON Schema validator for elicitation
 * alone, which this service never asks for. An SDK update that validates anything else
 * with it fails here, before a deployed server would throw.
 */
const sdkServer = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/server/index.js')), 'index.js');

describe('the Ajv stub in the mcp-protocol bundle', () => {
  it('stands for a validator the SDK server uses only to check elicitation answers', () => {
    const source = readFileSync(sdkServer, 'utf8');
    const uses = [...source.matchAll(/_jsonSchemaValidator\.(\w+)/g)].map((m) => m[1]);
    expect(uses).toEqual(['getValidator']);
    // The method it is used in: the last one the class declares before the use.
    const before = source.slice(0, source.indexOf('_jsonSchemaValidator.getValidator'));
    const methods = [...before.matchAll(/\n {4}(?:async )?(\w+)\(/g)].map((m) => m[1]);
    expect(methods.at(-1)).toBe('elicitInput');
  });
});
