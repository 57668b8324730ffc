import { hasExpired } from '#core/access/credential-lifecycle';
import type { Principal } from '#core/access/principal';
import { limitOf } from '#core/entitlements/limits';
import { defaultNamespaceId } from '#core/namespaces/ids';
import type { BoundedCache } from '#core/platform/bounded-cache';
import { type ApiError, TokenExpired } from '#core/platform/errors';
import { idInputPattern, normaliseId } from '#core/platform/ids';
import type { Tier } from '#core/platform/tiers';
import type { Deps } from '#core/ports/deps';
import type { SharedGatewayKeys } from '#core/ports/gateway-keys';
import { readTogether } from '#core/store/conditions';
import type { Database } from '#core/store/database';
import type { MembershipItem, NamespaceItem, WorkspaceItem } from '#core/store/items';
import { cachePerTable, type PreparedTransactGet, prepareTransactGet } from '#core/store/prepared-reads';
import { suspensionOf } from './workspace-state.ts';

type TransactionEntities = Parameters<Parameters<Database['transaction']['get']>[0]>[0];

/** The key a workspace's requests are metered under at the edge: its own, else its tier's shared one. */
const usageKeyOf = (shared: SharedGatewayKeys, workspace: { tier: Tier; gatewayKey?: { value: string } }): string =>
  workspace.gatewayKey?.value ?? shared.tiers[workspace.tier];

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
  /** The only workspace the credential may act in, if it is bound to one (an OAuth token: its client's). */
  boundTo?(location: L): string | undefined;
  /** The principal's credential-specific part; `workspace` is the one the request is metered in (its tier counts). */
  principal(
    record: R,
    workspace: WorkspaceItem,
  ): Omit<
    Principal,
    'userId' | 'workspaceId' | 'role' | 'suspension' | 'unpaidSince' | 'apiCallsLimit' | 'meteredWorkspaceId' | 'usageKey'
  >;
}

const workspaceIdPattern = idInputPattern('workspace');

/**
 * The workspace a request names (X-Workspace-ID, else `workspace_id`) when it is another
 * than the credential's home, in the stored spelling; an OAuth token names none but its own.
 */
function otherWorkspaceNamed(named: string | undefined, home: string, boundTo: string | undefined): string | undefined {
  if (!named || !workspaceIdPattern.test(named) || boundTo) return undefined;
  const id = normaliseId(named);
  return id === home ? undefined : id;
}

/** Each table's prepared reads of verified credentials, by digest and the other workspace named. */
const preparedReads = cachePerTable<PreparedTransactGet>();

const readKeyOf = (digest: string, other: string | undefined) => `${digest}|${other ?? ''}`;

/**
 * The credential's record, and for its home workspace (and the other one the request names)
 * the workspace, the user's membership and the workspace's default namespace: built once per
 * verified credential and workspace named (store/prepared-reads.ts), read on every request.
 */
function preparedRead<L extends Location, R extends object>(
  deps: Deps,
  kind: CredentialKind<L, R>,
  found: L,
  digest: string,
  other: string | undefined,
): PreparedTransactGet {
  const reads = preparedReads(deps.db);
  const key = readKeyOf(digest, other);
  let read = reads.get(key);
  if (read) return read;
  const workspaceItems = (entities: TransactionEntities, workspaceId: string) => [
    entities.workspace.get({ id: workspaceId }).commit(),
    entities.membership.get({ workspaceId, userId: found.userId }).commit(),
    // Its packages may raise the workspace's api_calls quota, which the authorizer meters.
    entities.namespace.get({ id: defaultNamespaceId(workspaceId) }).commit(),
  ];
  read = prepareTransactGet(deps.db, (entities) => [
    kind.record(entities, found),
    ...workspaceItems(entities, found.workspaceId),
    ...(other ? workspaceItems(entities, other) : []),
  ]);
  reads.set(key, read);
  return read;
}

/**
 * Every credential check: a cached location or a lookup by the secret, then one strongly
 * consistent read of the record, its workspace, membership and namespace, so that revocation
 * and removal take effect on the next request. Another of the user's workspaces that the
 * request names is read with them, so that the request is metered where it acts.
 */
export async function verifyCredential<L extends Location, R extends object>(
  deps: Deps,
  kind: CredentialKind<L, R>,
  digest: string,
  workspaceNamed?: string,
): Promise<Principal> {
  let location = kind.verified.get(digest);
  if (!location) {
    location = await kind.locate();
    if (!location) throw kind.refused();
  }
  const found = location;
  const other = otherWorkspaceNamed(workspaceNamed, found.workspaceId, kind.boundTo?.(found));
  const [recordEntry, ...entries] = await readTogether(() => preparedRead(deps, kind, found, digest, other).go());
  const record = (recordEntry as unknown as { item: R | null } | undefined)?.item;
  const [home, acting] = [entries.slice(0, 3), entries.slice(3)].map(([workspace, membership, namespace]) => ({
    workspace: (workspace as { item: WorkspaceItem | null } | undefined)?.item,
    membership: (membership as { item: MembershipItem | null } | undefined)?.item,
    packages: (namespace as { item: NamespaceItem | null } | undefined)?.item?.packages ?? [],
  })) as [WorkspaceRead, WorkspaceRead];
  const now = deps.clock.now();
  if (!record || !kind.live(record, now) || !mayActIn(home)) {
    kind.verified.delete(digest);
    preparedReads(deps.db).delete(readKeyOf(digest, other));
    throw kind.refused();
  }
  kind.verified.set(digest, location);
  const expiresAt = kind.expiresAt?.(record);
  if (hasExpired(expiresAt, now)) throw new TokenExpired(expiresAt!);
  kind.check?.(record);
  await kind.touch?.(record, now);
  const metered = other && mayActIn(acting) ? acting : home;
  return {
    userId: location.userId,
    workspaceId: location.workspaceId,
    role: home.membership.role,
    ...kind.principal(record, metered.workspace),
    suspension: suspensionOf(home.workspace),
    ...(home.workspace.unpaidAt ? { unpaidSince: home.workspace.unpaidAt } : {}),
    meteredWorkspaceId: metered.workspace.id,
    usageKey: usageKeyOf(deps.gatewayKeys.shared, metered.workspace),
    apiCallsLimit: limitOf(metered.workspace.tier, 'api_calls', metered.packages, now),
  };
}

/** A workspace as the credential check read it, with the user's membership there. */
interface WorkspaceRead {
  workspace: WorkspaceItem | null | undefined;
  membership: MembershipItem | null | undefined;
  packages: NamespaceItem['packages'];
}

/** A workspace the user may act in: it exists, is not being deleted, and the user is a member. */
const mayActIn = (s: WorkspaceRead): s is WorkspaceRead & { workspace: WorkspaceItem; membership: MembershipItem } =>
  !!s.workspace && !s.workspace.deletingAt && !!s.membership;
