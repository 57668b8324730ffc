import { randomBytes } from 'node:crypto';
import { createAccount } from '#core/accounts/new-account';
import { generateApiKey } from '#core/api-keys/api-key-format';
import { issueApiKey } from '#core/api-keys/api-keys';
import type { Deps } from '#core/ports/deps';
import { noUsersYet } from '#core/users/users';

export interface BootstrapInput {
  apiKey?: string;
  email?: string;
  password?: string;
}

export interface BootstrapResult {
  userId: number;
  email: string;
  password: string;
  workspaceId: string;
  apiKey: string;
}

/**
 * On an empty store: an admin user, an enterprise workspace it owns, and a key with scope
 * `*`. Values not given are generated; the caller prints them once. Does nothing (and
 * answers undefined) when anyone exists already.
 */
export async function bootstrapAdmin(deps: Deps, input: BootstrapInput): Promise<BootstrapResult | undefined> {
  if (!(await noUsersYet(deps))) return undefined;
  const email = input.email ?? 'admin@example.com';
  const password = input.password ?? randomBytes(12).toString('base64url');
  const apiKey = input.apiKey ?? generateApiKey('live');
  const { user, workspace } = await createAccount(
    deps,
    { name: 'Admin', email, password, tier: 'enterprise', platformAdmin: true, emailVerified: true },
    'Admin workspace',
  );
  await issueApiKey(deps, user.id, workspace.id, { name: 'Bootstrap key', scopes: ['*'], plaintext: apiKey });
  return { userId: user.id, email, password, workspaceId: workspace.id, apiKey };
}
