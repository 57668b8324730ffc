import type { EntityItem } from 'electrodb';
import type { Deps } from '../deps.ts';
import { TokenExpired, type ApiError } from '../errors.ts';
import { usageKeyOf } from '../gateway/usage-key.ts';
import { readTogether } from '../store/conditions.ts';
import type { Database } from '../store/database.ts';
import { hasExpired } from './credential-lifecycle.ts';
import type { BoundedCache } from './bounded-cache.ts';
import type { Principal } from './principal.ts';
import { suspensionOf } from './workspace-context.ts';
import { limitOf } from '../entitlements/limits.ts';
import { defaultNamespaceId } from '../namespaces/ids.ts';

type WorkspaceItem = EntityItem<Database['entities']['workspace']>;
type TransactionEntities = Parameters<Parameters<Database['transaction']['get']>[0]>[0];

/** Where a credential's record lives, and whom it acts for. */
export interface Location {
  workspaceId: string;
  userId: number;
}

/** What varies between API keys, user tokens, sessions and OAuth tokens. */
export interface CredentialKind<L extends Location, R extends object> {
  /** Credentials this process verified, by the digest of their secret. */
  verified: BoundedCache<L>;
  /** The answer to a credential that is unknown, revoked or ended. */
  refused: () => ApiError;
  /** Finds a credential this process has not verified by its secret; undefined when none matches. */
  locate(): Promise<L | undefined>;
  /** The record's get, for the strongly consistent read with its workspace and membership. */
  record(entities: TransactionEntities, location: L): unknown;
  /** Still in force: not past its TTL, grace period or end (credential-lifecycle.ts). */
  live(record: R, now: Date): boolean;
  /** Past it, the credential answers TOKEN_EXPIRED (until it is pruned). */
  expiresAt?(record: R): string | undefined;
  /** Checks of the request itself (IP list, XSRF token), once the credential is known good. */
  check?(record: R): void;
  /** Records the use (last-used.ts: at most once a minute). */
  touch?(record: R, now: Date): Promise<void>;
  /** The principal's credential-specific part. */
  principal(record: R, workspace: WorkspaceItem): Omit<Principal, 'userId' | 'workspaceId' | 'role' | 'suspension' | 'apiCallsLimit'>;
}

/**
 * The one skeleton of every credential check: a process-local location cache, else a
 * lookup by the secret (an API key's bcrypt guarded per prefix and address: failed-authentications.ts); then one
 * strongly consistent read of the record, its workspace, the membership and the workspace's
 * default namespace (its packages), so that
 * revocation, expiry and removal from the workspace take effect on the very next request.
 */
export async function verifyCredential<L extends Location, R extends object>(
  deps: Deps,
  kind: CredentialKind<L, R>,
  digest: string,
): Promise<Principal> {
  let location = kind.verified.get(digest);
  if (!location) {
    location = await kind.locate();
    if (!location) throw kind.refused();
  }
  const [recordEntry, workspaceEntry, membershipEntry, namespaceEntry] = await readTogether(() =>
    deps.db.transaction
      .get((entities) => [
        // Any entity's get: typed as the workspace's so that the tuple types; read as R below.
        kind.record(entities, location) as ReturnType<ReturnType<TransactionEntities['workspace']['get']>['commit']>,
        entities.workspace.get({ id: location.workspaceId }).commit(),
        entities.membership.get({ workspaceId: location.workspaceId, userId: location.userId }).commit(),
        // Its packages may raise the workspace's api_calls quota, which the authorizer meters.
        entities.namespace.get({ id: defaultNamespaceId(location.workspaceId) }).commit(),
      ])
      .go(),
  );
  const record = (recordEntry as unknown as { item: R | null } | undefined)?.item;
  const workspace = workspaceEntry?.item;
  const membership = membershipEntry?.item;
  const now = deps.clock.now();
  if (!record || !kind.live(record, now) || !workspace || !membership) {
    kind.verified.delete(digest);
    throw kind.refused();
  }
  kind.verified.set(digest, location);
  const expiresAt = kind.expiresAt?.(record);
  if (hasExpired(expiresAt, now)) throw new TokenExpired(expiresAt!);
  kind.check?.(record);
  await kind.touch?.(record, now);
  return {
    userId: location.userId,
    workspaceId: location.workspaceId,
    role: membership.role,
    ...kind.principal(record, workspace),
    suspension: suspensionOf(workspace),
    usageKey: usageKeyOf(deps.gatewayKeys.shared, workspace),
    apiCallsLimit: limitOf(workspace.tier, 'api_calls', namespaceEntry?.item?.packages ?? [], now),
  };
}
