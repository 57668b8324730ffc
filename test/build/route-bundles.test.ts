import { type LambdaFunctionName, lambdaFunctions } from '#routes';
import { unminifiedBundle } from '../support/unminified-bundles.ts';

describe('the route tables in the bundles', () => {
  // The MCP functions make their tools from every other function's route schemas; no other function holds another's.
  const catalogueHolders = new Set<LambdaFunctionName>(['mcp', 'mcp-protocol']);

  it('builds each function bundle with its own route table and schemas only', async () => {
    for (const name of lambdaFunctions.filter((n) => !catalogueHolders.has(n))) {
      const { inputs } = await unminifiedBundle(name);
      const otherTables = lambdaFunctions.filter((other) => other !== name).map((other) => `functions/${other}/routes.ts`);
      expect(inputs.filter((input) => otherTables.includes(input))).toEqual([]);
      expect(inputs).not.toContain('functions/routes.ts');
      expect(inputs).not.toContain('functions/operation-routes.ts');
    }
  });

  it("builds the MCP functions with every other function's route table, and none of their handlers", async () => {
    for (const name of catalogueHolders) {
      const { inputs } = await unminifiedBundle(name);
      expect(inputs).toContain('functions/operation-routes.ts');
      const operationTables = lambdaFunctions
        .filter((other) => !catalogueHolders.has(other))
        .map((other) => `functions/${other}/routes.ts`);
      expect(operationTables.filter((table) => !inputs.includes(table))).toEqual([]);
      const otherHandlers = lambdaFunctions.filter((other) => other !== name).map((other) => `functions/${other}/handlers.ts`);
      expect(inputs.filter((input) => otherHandlers.includes(input))).toEqual([]);
    }
  });
});
