import { randomBytes } from 'node:crypto';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { isConditionFailure } from '#core/store/conditions';
import type { AccountTokenPurpose } from '#core/store/entities/account-token';
import type { AccountTokenItem } from '#core/store/items';
import { prunableFrom } from '#core/store/table';

export const accountTokenLifetimeSeconds = 60 * 60;

/** Past its TTL a token is gone, whether or not it has been pruned yet. */
export const accountTokenIsOpen = (item: Pick<AccountTokenItem, 'ttl'>, now: Date) => item.ttl * 1000 > now.getTime();

/** A new token for `purpose`, bound to a user and the address it is mailed to; answers the plaintext, which only the mail carries. */
export async function issueAccountToken(deps: Deps, purpose: AccountTokenPurpose, userId: number, email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const ttl = Math.floor(now.getTime() / 1000) + accountTokenLifetimeSeconds;
  await deps.db.entities.accountToken
    .create({ digest: sha256(token), purpose, userId, email, createdAt: now.toISOString(), ttl, prunableAt: prunableFrom(ttl) })
    .go();
  return token;
}

/**
 * The record of a token that exists, serves `purpose`, is open and passes `accept`, used or
 * not; else undefined. Reads only: what the link does is the caller's.
 */
export async function openAccountToken(
  deps: Deps,
  purpose: AccountTokenPurpose,
  token: string,
  accept: (item: AccountTokenItem) => boolean,
): Promise<AccountTokenItem | undefined> {
  const { data } = await deps.db.entities.accountToken.get({ digest: sha256(token) }).go({ consistent: true });
  return data && data.purpose === purpose && accountTokenIsOpen(data, deps.clock.now()) && accept(data) ? data : undefined;
}

/**
 * Uses a token up: answers its record if openAccountToken finds it, and deletes it on
 * condition that it is still there, so two requests with one token cannot both succeed.
 * Anything else answers undefined and deletes nothing.
 */
export async function takeAccountToken(
  deps: Deps,
  purpose: AccountTokenPurpose,
  token: string,
  accept: (item: AccountTokenItem) => boolean,
): Promise<AccountTokenItem | undefined> {
  const data = await openAccountToken(deps, purpose, token, accept);
  if (!data) return undefined;
  try {
    await deps.db.entities.accountToken.remove({ digest: data.digest }).go();
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
  return data;
}

/** Whether a token, open or used, was mailed to `address`. */
export const mailedTo = (item: Pick<AccountTokenItem, 'email' | 'emailDigest'>, address: string): boolean =>
  item.email === undefined ? item.emailDigest === sha256(address) : item.email === address;

/** What marks a token used (its `email` removed with it): when, and its address as a digest only. */
export const spentToken = (item: Pick<AccountTokenItem, 'email'>, at: string) => ({ usedAt: at, emailDigest: sha256(item.email ?? '') });
