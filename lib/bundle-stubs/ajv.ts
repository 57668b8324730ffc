/**
 * Stands in for `ajv` and `ajv-formats` in the Lambda bundles (lib/bundling.ts). The MCP
 * SDK's `Server` makes an Ajv instance as it is constructed but compiles a schema for one
 * thing only: a client's answer to an elicitation (`elicitInput`), which this service's
 * stateless server never asks for. The real packages would cost the mcp bundle 140 KiB and
 * its cold start the time to load them; a tool's input is checked by its operation's own
 * zod schemas. test/unit/ajv-stub.test.ts holds the SDK to using Ajv no other way.
 */
export default class Ajv {
  compile(): never {
    throw new Error('This MCP server asks for no elicitation, so it compiles no JSON Schema.');
  }

  getSchema(): undefined {
    return undefined;
  }
}

/** `ajv-formats`' default export: adds formats to an instance, here to none. */
export const addFormats = (ajv: Ajv): Ajv => ajv;
