import type { Database } from '#core/store/database';
import type { ContentOwner } from './content-owner.ts';

type WriteTransaction = Parameters<Database['transaction']['write']>[0];
/** The entities as a transaction's callback receives them. */
export type TransactionEntities = Parameters<WriteTransaction>[0];

/** What a write adds to a post's words or categories, and removes. */
export interface Change {
  added: readonly string[];
  removed: readonly string[];
}

/** What goes from `before` to `after` adds and removes (a post's words, its categories). */
export function changeOf(before: readonly string[], after: readonly string[]): Change {
  const old = new Set(before);
  const now = new Set(after);
  return { added: after.filter((value) => !old.has(value)), removed: before.filter((value) => !now.has(value)) };
}

/** DynamoDB's limit of items in one transaction. */
export const maxTransactionItems = 100;

/**
 * A post's index items for the words it gains and loses (content/words.ts), in the post's
 * own transaction: the index never holds a word the post does not, nor misses one it does.
 */
export const wordWrites = (e: TransactionEntities, owner: ContentOwner, postId: string, { added, removed }: Change) => {
  const key = (word: string) => ({ workspaceId: owner.workspaceId, environment: owner.environment, word, postId });
  return [...added.map((word) => e.postWord.put(key(word)).commit()), ...removed.map((word) => e.postWord.delete(key(word)).commit())];
};

/**
 * A post's links to the categories it joins and leaves, each with the category's
 * `postCount`. Joining requires the category to exist and not be under deletion; that
 * condition is what refuses a category deleted since the request checked it.
 */
export const categoryWrites = (e: TransactionEntities, owner: ContentOwner, postId: string, { added, removed }: Change) => {
  const link = (categoryId: string) => ({ workspaceId: owner.workspaceId, environment: owner.environment, categoryId, postId });
  const category = (id: string) => ({ workspaceId: owner.workspaceId, environment: owner.environment, id });
  return [
    ...added.flatMap((id) => [
      e.postCategory.put(link(id)).commit(),
      e.category
        .update(category(id))
        .add({ postCount: 1 })
        .where((attr, op) => `${op.exists(attr.name)} AND ${op.notExists(attr.deletingAt)}`)
        .commit(),
    ]),
    ...removed.flatMap((id) => [
      e.postCategory.delete(link(id)).commit(),
      e.category
        .update(category(id))
        .add({ postCount: -1 })
        .where((attr, op) => op.exists(attr.name))
        .commit(),
    ]),
  ];
};
