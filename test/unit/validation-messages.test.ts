import * as z from 'zod/mini';
import { apiKeyId, createApiKeyBody, rotateApiKeyBody } from '#core/api-keys/api-key-schemas';
import { checkQuery } from '#core/entitlements/entitlement-schemas';
import { parseConfig } from '#core/platform/config';
import { MissingParameter, ValidationFailed } from '#core/platform/errors';
import { validate } from '#core/platform/validation';
import { createWorkspaceBody, workspaceId } from '#core/tenancy/workspace-schemas';
import { parseLocalConfig } from '#lib/local/local-config';

/** The field errors of a 422, as the client reads them in `errors`. */
function errorsOf(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.extras.errors as Record<string, string[]>;
    throw error;
  }
  throw new Error('expected a validation failure');
}

const configError = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
};

/** zod's own phrasing, which must not reach a client or an operator. */
const zodDefaults = /Invalid input|expected \w+, received|Too (big|small)|Invalid (string|option)/;

describe('validation messages, one house style for requests and configuration', () => {
  it('says a missing field is required and a wrong type what it must be', () => {
    const errors = errorsOf(() => validate(createWorkspaceBody, { tier: 5 }, 'body'));
    expect(errors.name).toEqual(['is required']);
    expect(errors.tier![0]).toMatch(/^must be one of free, starter, pro/);
    expect(errorsOf(() => validate(createApiKeyBody, { name: 7 }, 'body')).name).toEqual(['must be a string']);
  });

  it('states bounds as "must be at most" and unknown fields as not recognised', () => {
    const errors = errorsOf(() => validate(rotateApiKeyBody, { grace_period_hours: 721, colour: 'red' }, 'body'));
    expect(errors.grace_period_hours).toEqual(['must be at most 720']);
    expect(errors.colour).toEqual(['is not a recognised field']);
    expect(errorsOf(() => validate(createApiKeyBody, { name: 'x', scopes: [] }, 'body')).scopes).toEqual(['must have at least 1 item']);
  });

  it('names each bad variable at start-up in the same style', () => {
    expect(configError(() => parseConfig({ DEBUG_ERRORS: 'yes', API_PREFIX: 'api' }))).toBe(
      'Invalid configuration: API_PREFIX must look like /api/v1; DEBUG_ERRORS must be one of 0, 1',
    );
    expect(configError(() => parseLocalConfig({ PORT: '70000', BOOTSTRAP_PASSWORD: 'short', DYNAMODB_PORT: 'x' }))).toBe(
      'Invalid configuration: PORT must be at most 65535; DYNAMODB_PORT must be a number; BOOTSTRAP_PASSWORD must be at least 8 characters',
    );
  });

  it("never passes on one of zod's default messages", () => {
    const messages = [
      ...Object.values(
        errorsOf(() => validate(createApiKeyBody, { name: '', scopes: 'all', expires_at: 'soon', environment: 'prod', x: 1 }, 'body')),
      ).flat(),
      ...Object.values(errorsOf(() => validate(rotateApiKeyBody, { grace_period_hours: 1.5 }, 'body'))).flat(),
      configError(() => parseLocalConfig({ BOOTSTRAP_EMAIL: 'nobody', DYNAMODB_ENDPOINT: 'not a url', PRUNE_INTERVAL_SECONDS: '0' })),
    ];
    expect(messages.length).toBeGreaterThan(5);
    for (const message of messages) expect(message).not.toMatch(zodDefaults);
  });
});

describe('ids in paths', () => {
  const id = 'wks_01J9ZQ3V5K8M2N4P6R7S8T9V0W';

  it('accepts a lower-case ULID and reads it in upper case, as stored', () => {
    expect(validate(workspaceId, id.toLowerCase(), 'id')).toBe(id);
    expect(validate(apiKeyId, 'key_01j9zq3v5k8m2n4p6r7s8t9v0w', 'id')).toBe('key_01J9ZQ3V5K8M2N4P6R7S8T9V0W');
  });

  it('says what an id looks like when it is malformed', () => {
    for (const bad of ['acme', 'wks_123', 'WKS_01J9ZQ3V5K8M2N4P6R7S8T9V0W', 'wks_01J9ZQ3V5K8M2N4P6R7S8T9V0U']) {
      expect(errorsOf(() => validate(workspaceId, bad, 'id')).id).toEqual([
        'must be a workspace id: wks_ followed by 26 letters and digits (a ULID)',
      ]);
    }
  });
});

describe('required query parameters', () => {
  const missingOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (error instanceof MissingParameter) return error;
      throw error;
    }
    throw new Error('expected a missing parameter');
  };

  it('answers one not sent at all with 400 MISSING_PARAMETER naming each, whatever the schema would say of a bad value', () => {
    const one = missingOf(() => validate(checkQuery, { quantity: '2' }, 'query'));
    expect([one.status, one.errorCode, one.code, one.message]).toEqual([
      400,
      'MISSING_PARAMETER',
      'bad_request',
      'The query parameter "feature" is required.',
    ]);
    expect(one.extras.errors).toEqual({ feature: ['is required'] });
    const two = missingOf(() => validate(z.object({ a: z.string(), b: z.enum(['x']), c: z.optional(z.string()) }), { c: 'bad' }, 'query'));
    expect([two.message, two.extras.errors]).toEqual([
      'The query parameters "a", "b" are required.',
      { a: ['is required'], b: ['is required'] },
    ]);
  });

  it('keeps a bad value, an unknown parameter and a missing body field a 422', () => {
    expect(errorsOf(() => validate(checkQuery, { feature: 'nope' }, 'query')).feature![0]).toMatch(/^must be one of/);
    expect(Object.keys(errorsOf(() => validate(checkQuery, { feature: 'storage', colour: 'red' }, 'query')))).toEqual(['colour']);
    expect(errorsOf(() => validate(createWorkspaceBody, {}, 'body')).name).toEqual(['is required']);
  });
});
