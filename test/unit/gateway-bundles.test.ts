import { build } from 'esbuild';
import { esbuildOptions, functionNames } from '#lib/bundling';

/** Only the functions that create, move or remove workspaces' keys hold the API Gateway client: the others, the authorizer above all, stay small. */
describe('which bundles hold the API Gateway keys adapter', () => {
  const managing = ['workspaces', 'sessions', 'admin'];

  it.each(functionNames)('%s', async (name) => {
    const result = await build({ ...esbuildOptions(name, `/tmp/gateway-bundles-${name}.mjs`), write: false, metafile: true, minify: false });
    const inputs = Object.keys(result.metafile.inputs);
    // The authorizer leaves @aws-sdk/* to the runtime: there the client would be an external import.
    const externals = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
    const holdsClient = [...inputs, ...externals].some((path) => path.includes('@aws-sdk/client-api-gateway'));
    expect({ holdsClient, adapter: inputs.includes('functions/core/gateway/api-gateway-keys.ts') }).toEqual({
      holdsClient: managing.includes(name),
      adapter: managing.includes(name),
    });
  });
});
