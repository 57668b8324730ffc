/**
 * Stands in for `ajv` in the bundles: the MCP SDK compiles a schema only for elicitation
 * answers, which this stateless server never asks for, and the real package would add 140 KiB
 * (test/unit/ajv-stub.test.ts).
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
