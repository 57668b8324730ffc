import type { Environment } from '#core/platform/environments';
import { AccessDenied, InsufficientPermissions, ValidationFailed } from '#core/platform/errors';
import { ipRangeCovered } from './ip-allowlist.ts';
import type { Principal } from './principal.ts';
import { grants, scopesBeyond } from './scopes.ts';

/**
 * What a credential may hand on to the credentials it creates (API keys, user tokens) or
 * rotates (API keys): never more than it has itself. Creation and rotation in
 * api-keys/api-keys.ts and issuance in users/user-tokens.ts apply these.
 */

/**
 * The expiry of a credential created by `principal`: the requested one, in the future and
 * not later than the creator's own; none requested means the creator's.
 */
export function expiryWithin(principal: Pick<Principal, 'limits'>, requested: string | null | undefined, now: Date): string | undefined {
  if (requested && Date.parse(requested) <= now.getTime()) throw new ValidationFailed({ expires_at: ['must be in the future'] });
  const ceiling = principal.limits?.expiresAt;
  if (ceiling && requested && Date.parse(requested) > Date.parse(ceiling)) {
    throw new ValidationFailed({ expires_at: [`must not be later than your credential's own expiry, ${ceiling}`] });
  }
  return requested ? new Date(requested).toISOString() : ceiling;
}

/** The earlier of two expiries, none being the latest: a rotated key ends with its rotator. */
export function earlierExpiry(a: string | undefined, b: string | undefined): string | undefined {
  if (!a || !b) return a ?? b;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

/** A credential never hands on a scope it does not hold. */
export function requireHeldScopes(principal: Pick<Principal, 'scopes'>, scopes: readonly string[], refusal: string): void {
  const beyond = scopesBeyond(principal.scopes, scopes);
  if (beyond.length) throw new AccessDenied(`${refusal}: ${beyond.join(', ')}.`);
}

export function requireScope(principal: Pick<Principal, 'scopes'>, scope: string): void {
  if (!grants(principal.scopes, scope)) throw new InsufficientPermissions(scope, principal.scopes);
}

/**
 * The IP list of a new key: the requested one, which must lie within the creator's own;
 * none requested means the creator's. An empty list means "anywhere", which a credential
 * bound to a list cannot grant.
 */
export function ipListWithin(principal: Pick<Principal, 'limits'>, requested: readonly string[] | undefined): string[] | undefined {
  const own = principal.limits?.allowedIps;
  if (requested === undefined) return own;
  if (own?.length) {
    if (requested.length === 0) {
      throw new ValidationFailed({
        allowed_ips: [`must not be empty (anywhere): your credential may only be used from ${own.join(', ')}`],
      });
    }
    const outside = requested.filter((entry) => !ipRangeCovered(entry, own));
    if (outside.length) {
      throw new ValidationFailed({ allowed_ips: [`${outside.join(', ')} lies outside your credential's own list, ${own.join(', ')}`] });
    }
  }
  return requested.length ? [...requested] : undefined;
}

/**
 * A credential bound to one workspace (an OAuth token) makes nothing that would outlive the
 * token's revocation or reach beyond that workspace: no API key (by X-Workspace-ID it would
 * reach the user's other workspaces), workspace, webhook endpoint or invitation, no answer
 * to an invitation into another workspace, no account change, no platform admin's act.
 */
export function requireUnboundCredential(principal: Pick<Principal, 'limits'>, action: string): void {
  if (principal.limits?.workspaceId)
    throw new AccessDenied(`An OAuth access token cannot ${action}: that is for the user's own credentials.`);
}

/** A test credential stays in the sandbox: it cannot create or rotate live keys. */
export function requireEnvironment(principal: { environment?: Environment }, environment: Environment, action: string): void {
  if (principal.environment === 'test' && environment === 'live') throw new AccessDenied(`A test credential cannot ${action} live keys.`);
}
