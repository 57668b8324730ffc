import { build } from 'esbuild';
import { takesIdempotencyKey } from '#core/http/idempotency/idempotent-routes';
import { esbuildOptions } from '#lib/bundling';
import { lambdaFunctions, routeTables } from '#routes';

/**
 * A function whose routes take an Idempotency-Key is given the idempotency runner, and
 * only such a function holds Powertools: its handler module refuses to load without it,
 * and the others' bundles stay free of it (the oauth bundle is close to 1 MiB).
 */
describe('which functions run requests idempotently', () => {
  it.each(lambdaFunctions)('%s', async (name) => {
    const takesKeys = routeTables[name].some(takesIdempotencyKey);
    await expect(import(`../../functions/${name}/index.ts`)).resolves.toHaveProperty('handler');
    const result = await build({
      ...esbuildOptions(name, `/tmp/idempotency-bundles-${name}.mjs`),
      write: false,
      metafile: true,
      minify: false,
    });
    const holdsPowertools = Object.keys(result.metafile.inputs).some((path) => path.includes('@aws-lambda-powertools/idempotency'));
    expect({ name, holdsPowertools }).toEqual({ name, holdsPowertools: takesKeys });
  });
});
