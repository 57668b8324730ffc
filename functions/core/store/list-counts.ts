import type { Environment } from '#core/platform/environments';
import { type Database, hotPath } from './database.ts';

/**
 * The size of every listed collection: a counter item moved by +1/-1 in the transaction of each
 * create and delete, so that `meta.total` is one GetItem, never a count. A collection's name
 * says whose it is, as it also binds list cursors: one tenant's cursor is refused on any other
 * list.
 */
export const collections = {
  workspacesOfUser: (userId: number) => `workspaces-of-user:${userId}`,
  membersOfWorkspace: (workspaceId: string) => `members-of-workspace:${workspaceId}`,
  apiKeysOfWorkspace: (workspaceId: string) => `api-keys-of-workspace:${workspaceId}`,
  invitationsOfUser: (userId: number) => `invitations-of-user:${userId}`,
  userTokensOfUser: (userId: number) => `user-tokens-of-user:${userId}`,
  webhooksOfWorkspace: (workspaceId: string, environment: Environment) => `webhooks-of-workspace:${workspaceId}:${environment}`,
  postsOfWorkspace: (workspaceId: string, environment: Environment) => `posts-of-workspace:${workspaceId}:${environment}`,
  categoriesOfWorkspace: (workspaceId: string, environment: Environment) => `categories-of-workspace:${workspaceId}:${environment}`,
  seoIssuesOfWorkspace: (workspaceId: string, environment: Environment) => `seo-issues-of-workspace:${workspaceId}:${environment}`,
  /** `urlKey`: the SHA-256 of the normalised URL (core/seo/seo-urls.ts). */
  seoReportsOfUrl: (workspaceId: string, environment: Environment, urlKey: string) =>
    `seo-reports-of-url:${workspaceId}:${environment}:${urlKey}`,
} as const;

/** The counter item's name of a collection (seeding tools write it directly). */
export const counterName = (collection: string) => `list:${collection}`;

type WriteTransaction = Parameters<Database['transaction']['write']>[0];
/** The counter entity as a transaction's callback receives it. */
type TransactionCounter = Parameters<WriteTransaction>[0]['counter'];

/** The transaction item that counts `added` more members of `collection` (the counter starts at 0). */
export const countMore = (counter: TransactionCounter, collection: string, added: number) =>
  counter
    .update({ name: counterName(collection) })
    .add({ value: added })
    .commit();

/** The transaction item that counts one more member of `collection`. */
export const countOneMore = (counter: TransactionCounter, collection: string) => countMore(counter, collection, 1);

/** One more, on condition that the collection holds fewer than `limit` (null: no limit), e.g. a plan's members. */
export const countOneMoreBelow = (counter: TransactionCounter, collection: string, limit: number | null) => {
  const update = counter.update({ name: counterName(collection) }).add({ value: 1 });
  return (limit === null ? update : update.where((attr, op) => `${op.notExists(attr.value)} OR ${op.lt(attr.value, limit)}`)).commit();
};

/**
 * The transaction item that counts one fewer. It requires the counter to exist, so that a
 * delete racing the removal of the whole collection (a workspace deleted) fails as a
 * condition instead of leaving a counter at -1 behind.
 */
export const countOneFewer = (counter: TransactionCounter, collection: string) =>
  counter
    .update({ name: counterName(collection) })
    .add({ value: -1 })
    .where((attr, op) => op.exists(attr.value))
    .commit();

/** The size of a collection: a strongly consistent GetItem, so a list sees its own writes. */
async function countOf(db: Database, collection: string): Promise<number> {
  const { data } = await db.entities.counter.get({ name: counterName(collection) }).go({ ...hotPath, consistent: true });
  return Math.max(0, data?.value ?? 0);
}

export interface CountedCollection {
  /** The collection's name (`collections`): it also binds the list's cursors. */
  collection: string;
  /** Its size, at the cost of one read. */
  count(): Promise<number>;
}

export const counted = (db: Database, collection: string): CountedCollection => ({ collection, count: () => countOf(db, collection) });

/** Drops a collection's counter with the collection (a workspace's keys and members). */
export async function forgetCount(db: Database, collection: string): Promise<void> {
  await db.entities.counter.delete({ name: counterName(collection) }).go();
}
