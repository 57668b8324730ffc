import { gatewayResponses } from '#core/http/gateway-responses';
import { type ErrorEntry, errorCatalogue, statusesOf } from '#core/platform/error-catalogue';
import * as errorCodes from '#core/platform/error-codes';
import * as errors from '#core/platform/errors';

const { ApiError } = errors;

/**
 * One of each error the service throws. A new error class fails the first test until it
 * has a sample here, and the sample fails the second until its code is in the catalogue.
 */
const samples: Record<string, () => errors.ApiError> = {
  ValidationFailed: () => new errors.ValidationFailed({ name: ['is required'] }),
  InvalidFormat: () => new errors.InvalidFormat('Send JSON.'),
  MissingParameter: () => new errors.MissingParameter(['feature']),
  PayloadTooLarge: () => new errors.PayloadTooLarge(1024),
  Unauthenticated: () => new errors.Unauthenticated(),
  InvalidApiKey: () => new errors.InvalidApiKey(),
  TokenExpired: () => new errors.TokenExpired('2026-01-01T00:00:00.000Z'),
  InsufficientPermissions: () => new errors.InsufficientPermissions('workspaces:write', ['workspaces:read']),
  AccessDenied: () => new errors.AccessDenied('No.'),
  NotFound: () => new errors.NotFound('workspace', 'wks_1'),
  EndpointNotFound: () => new errors.EndpointNotFound('/nowhere'),
  MethodNotAllowed: () => new errors.MethodNotAllowed('PUT', '/workspaces', ['GET', 'POST']),
  DuplicateResource: () => new errors.DuplicateResource('workspace', 'slug', 'wks_1'),
  StateConflict: () => new errors.StateConflict('Rotated already.', 'grace_period', 'rotate'),
  CannotRetry: () => new errors.CannotRetry('The delivery succeeded already.', 'success', 1),
  InternalError: () => new errors.InternalError(),
  InvalidCredentials: () => new errors.InvalidCredentials(),
  InvalidToken: () => new errors.InvalidToken(),
  OAuthRefusal: () => new errors.OAuthRefusal(400, 'invalid_grant', 'The code has expired.'),
  InvalidLink: () => new errors.InvalidLink(),
  EmailNotVerified: () => new errors.EmailNotVerified('accept an invitation'),
  WorkspaceSuspended: () => new errors.WorkspaceSuspended('wks_1', '2026-01-01T00:00:00.000Z', 'Unpaid'),
  RateLimited: () => new errors.RateLimited('Slow down.', 60, new Date(60_000), new Date(0)),
  QuotaExceeded: () => new errors.QuotaExceeded('api_calls', 10_000, 10_000, new Date(60_000), new Date(0)),
  FeatureLimitReached: () => new errors.FeatureLimitReached('api_keys', 5, 5, 'https://example.com/upgrade'),
  NamespaceAccessDenied: () => new errors.NamespaceAccessDenied('ns_1'),
  ResourceLocked: () => new errors.ResourceLocked('Still running.'),
  InvalidType: () => new errors.InvalidType('body', 'a JSON object', 'an array'),
  MissingBody: () => new errors.MissingBody({ name: ['is required'] }),
  PaymentRequired: () => new errors.PaymentRequired('wks_1', '2026-01-01T00:00:00.000Z', 'https://example.com/billing'),
  ServiceUnavailable: () => new errors.ServiceUnavailable(),
  MaintenanceMode: () => new errors.MaintenanceMode(300),
  ConcurrentLimitExceeded: () => new errors.ConcurrentLimitExceeded(2),
};

const errorClasses = Object.entries(errors)
  .filter(([, value]) => typeof value === 'function' && value.prototype instanceof ApiError)
  .map(([name]) => name);

/** An error agrees with its catalogue entry: status, codes, the extras, meta and headers it must carry, and no others. */
function disagreements(error: errors.ApiError): string[] {
  const entry = (errorCatalogue as Record<string, ErrorEntry>)[error.errorCode];
  if (!entry) return [`${error.errorCode} is not in the catalogue`];
  const problems: string[] = [];
  if (!statusesOf(entry).includes(error.status)) problems.push(`status ${error.status} is not among ${statusesOf(entry)}`);
  if (error.code !== entry.code) problems.push(`code ${error.code} is not ${entry.code}`);
  const known = { ...entry.carries, ...entry.mayCarry };
  for (const name of Object.keys(entry.carries ?? {})) if (!(name in error.extras)) problems.push(`extra ${name} is missing`);
  for (const name of Object.keys(error.extras)) if (!(name in known)) problems.push(`extra ${name} is not catalogued`);
  for (const name of Object.keys(entry.meta ?? {})) if (!(name in error.meta)) problems.push(`meta.${name} is missing`);
  for (const name of Object.keys(error.meta)) if (!(name in (entry.meta ?? {}))) problems.push(`meta.${name} is not catalogued`);
  for (const name of entry.headers ?? []) if (!(name in error.headers)) problems.push(`header ${name} is missing`);
  return problems;
}

describe('the error catalogue', () => {
  it('names every code constant after the code it carries', () => {
    expect(Object.entries(errorCodes).filter(([name, identity]) => identity.errorCode !== name)).toEqual([]);
  });

  it('has a sample of every error class', () => {
    expect(errorClasses.filter((name) => !samples[name])).toEqual([]);
  });

  it.each(Object.keys(samples))('lists what %s answers with, as it answers', (name) => {
    expect(disagreements(samples[name]!())).toEqual([]);
  });

  it.each(gatewayResponses.map((r) => [r.type, r.error] as const))("lists API Gateway's %s answer, as it answers", (_, error) => {
    expect(disagreements(error)).toEqual([]);
  });

  it("answers API Gateway's usage-plan throttling and quota with 429 in the envelope", () => {
    const answer = (type: string) => {
      const { status, code, errorCode, extras, headers } = gatewayResponses.find((r) => r.type === type)!.error;
      return { status, code, errorCode, extras, headers };
    };
    expect(answer('THROTTLED')).toEqual({
      status: 429,
      code: 'rate_limit_exceeded',
      errorCode: 'RATE_LIMIT_EXCEEDED',
      extras: { retry_after: 1 },
      headers: { 'Retry-After': '1' },
    });
    expect(answer('QUOTA_EXCEEDED')).toEqual({
      status: 429,
      code: 'quota_exceeded',
      errorCode: 'QUOTA_EXCEEDED',
      extras: { quota_type: 'api_calls' },
      headers: {},
    });
  });

  it("tells API Gateway's 413 the gateway's limit", () => {
    expect(gatewayResponses.find((r) => r.type === 'REQUEST_TOO_LARGE')!.error.extras).toEqual({ limit: 10 * 1024 * 1024 });
  });
});
