import { Validator } from '#lib/bundle-stubs/jsonschema';

type Db = { entities: Record<string, { model: unknown }> };

/** Every entity as ElectroDB parsed it, with jsonschema real or stubbed as in the Lambda bundles. */
function parsedEntities(stubbed: boolean): Record<string, string> {
  let parsed: Record<string, string> = {};
  jest.isolateModules(() => {
    if (stubbed) jest.doMock('jsonschema', () => jest.requireActual('#lib/bundle-stubs/jsonschema'));
    const { createDatabase } = jest.requireActual('#core/store/database') as { createDatabase(client: unknown, table: string): Db };
    const { createDocumentClient } = jest.requireActual('#core/store/client') as { createDocumentClient(settings: object): unknown };
    const db = createDatabase(
      createDocumentClient({ TABLE_NAME: 'stub-check', AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' }),
      'stub-check',
    );
    parsed = Object.fromEntries(Object.entries(db.entities).map(([name, entity]) => [name, JSON.stringify(entity.model)]));
  });
  return parsed;
}

describe('the jsonschema stub of the Lambda bundles', () => {
  it('leaves ElectroDB building every entity of the database exactly as with the real package', () => {
    const real = parsedEntities(false);
    expect(Object.keys(real).length).toBeGreaterThan(20);
    expect(parsedEntities(true)).toEqual(real);
  });

  it('tells a model from anything else, which is how ElectroDB tells models from Entity instances', () => {
    const stub = new Validator();
    expect(stub.validate({ model: {}, attributes: {}, indexes: {} }).errors).toEqual([]);
    expect(stub.validate({ model: {}, schema: {}, query: {} }).errors).toHaveLength(1);
    expect(Validator.prototype.customFormats).toEqual({});
  });
});
