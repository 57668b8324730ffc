import { isLive } from '#core/access/credential-lifecycle';
import { accountTokenIsOpen } from '#core/accounts/account-tokens';
import { keyOwner } from '#core/api-keys/api-keys';
import { countOneFewerOf } from '#core/entitlements/limited-counts';
import { invitationIsOpen, removeInvitation } from '#core/members/invitations';
import type { Deps } from '#core/ports/deps';
import { commitOrThrow, isConditionFailure } from '#core/store/conditions';
import { collections, countOneFewer } from '#core/store/list-counts';

export interface PruneCounts {
  apiKeys: number;
  userTokens: number;
  invitations: number;
  pendingInvitations: number;
  accountTokens: number;
  sessions: number;
  throttleWindows: number;
}

export interface PruneOptions {
  /** Candidates read per Query page, and deleted in parallel. */
  pageSize?: number;
  /** Asked after each page: true ends the run early (a Lambda near its timeout); the next run goes on. */
  shouldStop?: () => boolean;
}

interface Page<T> {
  data: T[];
  cursor: string | null;
}

/** One kind of expiring item: how to page through its candidates, when it is finished, how to delete it. */
interface Kind<T> {
  page(until: string, cursor: string | null, limit: number): Promise<Page<T>>;
  /** The rule the code that reads such items applies: true once it treats the item as gone. */
  finished(item: T, now: Date): boolean;
  /** Deletes the item only if it is still the version judged (its prunableAt unchanged). */
  remove(item: T): Promise<unknown>;
}

/**
 * Deletes what is finished (docs/operations.md, Pruning), reading candidates from the sparse
 * `PRUNE#<entity>` index so that a run reads only what it deletes. The index trails the table,
 * so each is judged again and deleted only if its `prunableAt` is unchanged: an overlapping run
 * deletes nothing it should not.
 */
export async function pruneExpired(deps: Deps, options: PruneOptions = {}): Promise<PruneCounts> {
  const { entities } = deps.db;
  const now = deps.clock.now();
  const run = <T extends { prunableAt?: string }>(kind: Kind<T>) => pruneKind(kind, now, options);
  return {
    apiKeys: await run({
      page: (until, cursor, limit) =>
        entities.apiKey.query.byPrunableAt({ pruneBucket: 'apiKey' }).lte({ prunableAt: until }).go({ cursor, limit }),
      finished: (item, at) => !isLive(item, at),
      remove: (item) =>
        commitOrThrow(() =>
          deps.db.transaction
            .write(({ apiKey, counter, usageCounter }) => [
              apiKey
                .delete({ workspaceId: item.workspaceId, id: item.id })
                .where((attr, op) => op.eq(attr.prunableAt, item.prunableAt!))
                .commit(),
              countOneFewer(counter, collections.apiKeysOfWorkspace(item.workspaceId)),
              countOneFewerOf(usageCounter, keyOwner(item), 'api_keys', now),
            ])
            .go(),
        ),
    }),
    userTokens: await run({
      page: (until, cursor, limit) =>
        entities.userToken.query.byPrunableAt({ pruneBucket: 'userToken' }).lte({ prunableAt: until }).go({ cursor, limit }),
      // As user-token-auth: a token past its TTL is gone.
      finished: (item, at) => item.ttl !== undefined && item.ttl * 1000 <= at.getTime(),
      remove: (item) =>
        commitOrThrow(() =>
          deps.db.transaction
            .write(({ userToken, counter }) => [
              userToken
                .delete({ id: item.id })
                .where((attr, op) => op.eq(attr.prunableAt, item.prunableAt!))
                .commit(),
              countOneFewer(counter, collections.userTokensOfUser(item.userId)),
            ])
            .go(),
        ),
    }),
    invitations: await run({
      page: (until, cursor, limit) =>
        entities.invitation.query.byPrunableAt({ pruneBucket: 'invitation' }).lte({ prunableAt: until }).go({ cursor, limit }),
      finished: (item, at) => !invitationIsOpen(item, at),
      remove: (item) => removeInvitation(deps, item),
    }),
    pendingInvitations: await run({
      page: (until, cursor, limit) =>
        entities.pendingInvitation.query
          .byPrunableAt({ pruneBucket: 'pendingInvitation' })
          .lte({ prunableAt: until })
          .go({ cursor, limit }),
      finished: (item, at) => !invitationIsOpen(item, at),
      remove: (item) =>
        entities.pendingInvitation
          .delete({ emailDigest: item.emailDigest, workspaceId: item.workspaceId })
          .where((attr, op) => op.eq(attr.prunableAt, item.prunableAt))
          .go(),
    }),
    accountTokens: await run({
      page: (until, cursor, limit) =>
        entities.accountToken.query.byPrunableAt({ pruneBucket: 'accountToken' }).lte({ prunableAt: until }).go({ cursor, limit }),
      finished: (item, at) => !accountTokenIsOpen(item, at),
      remove: (item) =>
        entities.accountToken
          .delete({ digest: item.digest })
          .where((attr, op) => op.eq(attr.prunableAt, item.prunableAt))
          .go(),
    }),
    sessions: await run({
      page: (until, cursor, limit) =>
        entities.session.query.byPrunableAt({ pruneBucket: 'session' }).lte({ prunableAt: until }).go({ cursor, limit }),
      // As session-auth: a session ends at expiresAt.
      finished: (item, at) => Date.parse(item.expiresAt) <= at.getTime(),
      remove: (item) =>
        entities.session
          .delete({ digest: item.digest })
          .where((attr, op) => op.eq(attr.prunableAt, item.prunableAt!))
          .go(),
    }),
    throttleWindows: await run({
      page: (until, cursor, limit) =>
        entities.throttleWindow.query.byPrunableAt({ pruneBucket: 'throttleWindow' }).lte({ prunableAt: until }).go({ cursor, limit }),
      // A window past its TTL is over: attempts only ever count against the current one.
      finished: (item, at) => item.ttl * 1000 <= at.getTime(),
      remove: (item) =>
        entities.throttleWindow
          .delete({ subject: item.subject, windowStart: item.windowStart })
          .where((attr, op) => op.eq(attr.prunableAt, item.prunableAt!))
          .go(),
    }),
  };
}

async function pruneKind<T extends { prunableAt?: string }>(kind: Kind<T>, now: Date, options: PruneOptions): Promise<number> {
  const until = now.toISOString();
  const limit = options.pageSize ?? 100;
  let deleted = 0;
  let cursor: string | null = null;
  do {
    const page: Page<T> = await kind.page(until, cursor, limit);
    const outcomes = await Promise.all(
      page.data
        .filter((item) => kind.finished(item, now))
        .map((item) =>
          kind.remove(item).then(
            () => 1,
            (error: unknown) => {
              if (isConditionFailure(error)) return 0;
              throw error;
            },
          ),
        ),
    );
    deleted += outcomes.reduce((sum, n) => sum + n, 0);
    cursor = page.cursor;
  } while (cursor && !options.shouldStop?.());
  return deleted;
}
