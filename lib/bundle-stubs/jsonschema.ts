/**
 * Stands in for `jsonschema` in the Lambda bundles (lib/bundling.ts). ElectroDB uses it for
 * two things only, both as an entity or service is made: to check each entity's model, and
 * to tell a model from an Entity instance (a value passing the check is a model). Our models
 * are fixed at build time and checked by every test run, which loads the real package; in
 * Lambda the full check would cost every bundle 28 KiB and every cold start its time. So a
 * value passes here when it has a model's shape, and an Entity instance never does
 * (test/unit/jsonschema-stub.test.ts holds the two to the same answers for every entity).
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
