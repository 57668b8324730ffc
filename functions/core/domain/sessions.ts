import { randomBytes } from 'node:crypto';
import { sha256 } from '../auth/secrets.ts';
import type { Deps } from '../deps.ts';
import { InvalidCredentials, InvalidToken } from '../errors.ts';
import { checkThrottle, countAgainst, loginThrottles } from './throttle.ts';
import { createUser, findUserIdByEmail, loadUser, normalizeEmail, userView, workspaceIdsOf } from './users.ts';
import { createWorkspace } from './workspaces.ts';

export const sessionLifetimeMs = 24 * 3600 * 1000;

/** Compared against when the email is unknown, so that a miss costs what a hit costs. */
const decoyHash = '$2b$10$2F.hiL8EIj.ASI0zIYAO9ObtJrh/CmZvwwPkCZVO9IPywkENHQZjy';

export interface Registration {
  name: string;
  email: string;
  password: string;
}

/** A new user with a personal workspace they own. */
export async function register(deps: Deps, input: Registration) {
  const user = await createUser(deps, { name: input.name, email: input.email, password: input.password, tier: 'free' });
  const workspace = await createWorkspace(deps, user.id, { name: `${input.name}'s workspace` });
  return { user: userView(user), workspace };
}

export interface Login {
  email: string;
  password: string;
  sourceIp: string;
}

/**
 * Checks a password and opens a session in the user's first workspace. Failures count
 * against the email and the client address; either one used up answers 429 before the
 * password is even looked at.
 */
export async function login(deps: Deps, input: Login) {
  const email = normalizeEmail(input.email);
  const subjects = [
    [`login:email:${sha256(email)}`, loginThrottles.email],
    [`login:address:${input.sourceIp}`, loginThrottles.address],
  ] as const;
  for (const [subject, policy] of subjects) {
    await checkThrottle(deps, subject, policy, 'Too many failed logins; wait before trying again.');
  }
  const userId = await findUserIdByEmail(deps, email);
  const user = userId === undefined ? undefined : await loadUser(deps, userId);
  const matches = await deps.hasher.compare(input.password, user?.passwordHash ?? decoyHash);
  const workspaces = user && matches ? await workspaceIdsOf(deps, user.id) : [];
  if (!user || !matches || !workspaces.length) {
    await Promise.all(subjects.map(([subject, policy]) => countAgainst(deps, subject, policy)));
    throw new InvalidCredentials();
  }
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
