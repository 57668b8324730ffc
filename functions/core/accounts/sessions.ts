import { randomBytes } from 'node:crypto';
import { InvalidCredentials, InvalidToken } from '#core/platform/errors';
import { sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { refundAttempt, reserveAttempt, type ThrottlePolicy } from '#core/store/throttle-windows';
import { passwordMatches } from '#core/users/passwords';
import { userView } from '#core/users/user-view';
import { findUserIdByEmail, loadUser, normalizeEmail, workspaceIdsOf } from '#core/users/users';
import { loginThrottles } from './throttles.ts';

export const sessionLifetimeMs = 24 * 3600 * 1000;

/** Compared against when the email is unknown, so that a miss costs what a hit costs. */
const decoyHash = '$2b$10$2F.hiL8EIj.ASI0zIYAO9ObtJrh/CmZvwwPkCZVO9IPywkENHQZjy';

export interface Login {
  email: string;
  password: string;
  sourceIp: string;
}

/**
 * Checks a password and opens a session in the user's first workspace. Every attempt takes
 * one from the email's and the client address's allowance first (a success gives it back),
 * so once either is used up login answers 429 before the password is even looked at.
 */
export async function login(deps: Deps, input: Login) {
  const email = normalizeEmail(input.email);
  const subjects: [string, ThrottlePolicy][] = [
    [`login:email:${sha256(email)}`, loginThrottles.email],
    [`login:address:${input.sourceIp}`, loginThrottles.address],
  ];
  const refund = (which: [string, ThrottlePolicy][]) => Promise.all(which.map(([subject, policy]) => refundAttempt(deps, subject, policy)));
  const reserved = await Promise.allSettled(
    subjects.map(([subject, policy]) => reserveAttempt(deps, subject, policy, 'Too many failed logins; wait before trying again.')),
  );
  const refused = reserved.find((r) => r.status === 'rejected');
  if (refused) {
    await refund(subjects.filter((_, i) => reserved[i]!.status === 'fulfilled'));
    throw (refused as PromiseRejectedResult).reason;
  }
  const userId = await findUserIdByEmail(deps, email);
  const user = userId === undefined ? undefined : await loadUser(deps, userId);
  // One bcrypt whatever happens; a user without a password never matches, not even the decoy's.
  const matches = (await passwordMatches(deps, input.password, user?.passwordHash ?? decoyHash)) && !!user?.passwordHash;
  const workspaces = user && matches ? await workspaceIdsOf(deps, user.id) : [];
  if (!user || !matches || !workspaces.length) throw new InvalidCredentials();
  await refund(subjects);
  const sessionId = randomBytes(32).toString('base64url');
  const xsrfToken = randomBytes(24).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + sessionLifetimeMs);
  await deps.db.entities.session
    .create({
      digest: sha256(sessionId),
      userId: user.id,
      workspaceId: workspaces[0]!,
      xsrfToken,
      expiresAt: expiresAt.toISOString(),
      createdAt: now.toISOString(),
      ttl: Math.floor(expiresAt.getTime() / 1000),
      // The session ends at expiresAt itself (session-auth), up to a second after its TTL.
      prunableAt: expiresAt.toISOString(),
    })
    .go();
  return { user: userView(user), sessionId, xsrfToken, expiresAt };
}

/** Ends the session whose digest the authorizer found. */
export async function logout(deps: Deps, sessionDigest: string): Promise<void> {
  const { data } = await deps.db.entities.session.get({ digest: sessionDigest }).go();
  if (!data) throw new InvalidToken('The session has already ended.');
  await deps.db.entities.session.delete({ digest: sessionDigest }).go();
}

/**
 * Ends every session of a user but `keepDigest` (the one that changed the password). Sessions
 * are found through their per-user index, which trails the table: one made in the same
 * instant may survive, as it would have had it come a moment later.
 */
export async function endSessionsOf(deps: Deps, userId: number, keepDigest?: string): Promise<void> {
  const { session } = deps.db.entities;
  const { data } = await session.query.byUser({ userId }).go({ pages: 'all' });
  const ending = data.filter((s) => s.digest !== keepDigest).map((s) => ({ digest: s.digest }));
  if (ending.length) await session.delete(ending).go();
}
