/**
 * Stands in for `jsonschema` in the bundles: ElectroDB only checks models with it, which every
 * test run does with the real package, so a model's shape passes here
 * (test/unit/jsonschema-stub.test.ts).
 */
export class Validator {
  declare customFormats: Record<string, unknown>;

  addSchema(): void {}

  validate(value: unknown): { errors: { property: string; message: string }[] } {
    const isModel = typeof value === 'object' && value !== null && 'model' in value && 'attributes' in value && 'indexes' in value;
    return { errors: isModel ? [] : [{ property: 'instance', message: 'is not an entity model' }] };
  }
}

// ElectroDB registers its formats on the prototype before it makes a validator.
Validator.prototype.customFormats = {};
