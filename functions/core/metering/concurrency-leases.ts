import { randomUUID } from 'node:crypto';
import type { Principal } from '#core/access/principal';
import { ConcurrentLimitExceeded } from '#core/platform/errors';
import { tiers } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import { ignoreConditionFailure, isConditionFailure } from '#core/store/conditions';
import { hotPath } from '#core/store/hot-path';

/**
 * How long a slot stays taken should its holder never give it back (a crashed function):
 * past API Gateway's 29 seconds and any MCP tool call's own run, so a live call keeps it.
 */
const leaseMs = 60_000;

/** Free slots tried before refusing: others may take the ones the read saw free. */
const attempts = 3;

/** What a lease needs of the request's principal: who holds it, and the tier that sets the limit. */
type Holder = Pick<Principal, 'credential' | 'tier'>;

/**
 * Runs `call` in one of the credential's `concurrentCalls` slots, across every process: each
 * slot is a table item taken by a conditional put (free, or held past its expiry) and given
 * back when the call ends. With every slot taken it is 429 CONCURRENT_LIMIT_EXCEEDED before
 * anything runs.
 */
export async function withConcurrencyLease<T>(deps: Pick<Deps, 'db' | 'clock'>, principal: Holder, call: () => Promise<T>): Promise<T> {
  const leases = deps.db.entities.concurrencyLease;
  const limit = tiers[principal.tier].concurrentCalls;
  const credentialId = principal.credential.id;
  const now = deps.clock.now().getTime();
  const { data } = await leases.query.byCredential({ credentialId }).go({ ...hotPath, limit });
  const held = new Set(data.filter((lease) => lease.expiresAt > now).map((lease) => lease.slot));
  const free = Array.from({ length: limit }, (_, slot) => slot).filter((slot) => !held.has(slot));
  // Each caller starts at a different free slot, so that parallel callers rarely race for one.
  const offset = Math.floor(Math.random() * free.length);
  const holder: string = randomUUID();
  let taken: number | undefined;
  for (let i = 0; i < Math.min(attempts, free.length) && taken === undefined; i++) {
    const slot = free[(offset + i) % free.length]!;
    try {
      const expiresAt = now + leaseMs;
      await leases
        .put({ credentialId, slot, holder, expiresAt, ttl: Math.ceil(expiresAt / 1000) + 3600 })
        .where((attr, op) => `${op.notExists(attr.holder)} OR ${op.lt(attr.expiresAt, now)}`)
        .go();
      taken = slot;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  if (taken === undefined) throw new ConcurrentLimitExceeded(limit);
  try {
    return await call();
  } finally {
    // Only its holder gives a slot back: one taken over after expiry belongs to another call.
    await leases
      .delete({ credentialId, slot: taken })
      .where((attr, op) => op.eq(attr.holder, holder))
      .go()
      .catch(ignoreConditionFailure);
  }
}
