import { takesIdempotencyKey } from '#core/http/idempotency/idempotent-routes';
import { lambdaFunctions, routeTables } from '#routes';
import { unminifiedBundle } from '../support/unminified-bundles.ts';

/**
 * A function whose routes take an Idempotency-Key is given the idempotency runner, and
 * only such a function holds Powertools: its handler module refuses to load without it,
 * and the others' bundles stay free of it (the oauth bundle is close to 1 MiB).
 */
describe('which functions run requests idempotently', () => {
  it.each(lambdaFunctions)('%s', async (name) => {
    const takesKeys = routeTables[name].some(takesIdempotencyKey);
    await expect(import(`../../functions/${name}/index.ts`)).resolves.toHaveProperty('handler');
    const { inputs } = await unminifiedBundle(name);
    const holdsPowertools = inputs.some((path) => path.includes('@aws-lambda-powertools/idempotency'));
    expect({ name, holdsPowertools }).toEqual({ name, holdsPowertools: takesKeys });
  });
});
