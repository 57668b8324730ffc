/**
 * Where a key that still exists stands: `grace_period` once it was rotated (it works until
 * `grace_period_ends_at`), `expired` past its expiry (it answers TOKEN_EXPIRED until it is
 * pruned), `active` otherwise. Revoked keys are deleted; finished ones are treated as gone.
 * A module of its own, without dependencies, because the route table's schemas name it.
 */
export const keyStatuses = ['active', 'grace_period', 'expired'] as const;

export type KeyStatus = (typeof keyStatuses)[number];

export function keyStatus(item: { graceEndsAt?: string; expiresAt?: string }, now: Date): KeyStatus {
  if (item.graceEndsAt) return 'grace_period';
  if (item.expiresAt && Date.parse(item.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
}
