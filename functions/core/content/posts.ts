import { countOneFewerOf, countOneMoreWithin, withinLimit } from '#core/entitlements/limited-counts';
import { forgetUsage } from '#core/entitlements/usage';
import type { EventType } from '#core/events/event-types';
import { commitWithEvents, type NewEvent } from '#core/events/outbox';
import { workspaceScope } from '#core/namespaces/workspace-scope';
import { newId } from '#core/platform/ids';
import { slugify } from '#core/platform/slugs';
import type { Deps } from '#core/ports/deps';
import { failedConditions } from '#core/store/conditions';
import type { PostStatus } from '#core/store/entities/post-status';
import type { PostItem } from '#core/store/items';
import { collections, countOneFewer, countOneMore, forgetCount } from '#core/store/list-counts';
import { madeInOpenWorkspace, openWorkspace } from '#core/tenancy/workspace-open';
import { requireCategories } from './categories-in-use.ts';
import { type ContentOwner, contentKey } from './content-owner.ts';
import { forgetPost } from './content-purge.ts';
import { claimSlug, freeSlug, refuseTakenSlug, releaseSlug } from './content-slugs.ts';
import { categoryWrites, changeOf, maxTransactionItems, wordWrites } from './content-writes.ts';
import { candidateSlug, whileContended } from './contention.ts';
import { loadPost, postEvent } from './post-view.ts';
import { indexedWordsOf } from './words.ts';

export interface PostFields {
  title: string;
  slug?: string;
  excerpt?: string | null;
  content?: string | null;
  status?: PostStatus;
  categoryIds?: readonly string[];
}

export type PostChanges = Partial<PostFields>;

const collectionOf = (owner: ContentOwner) => collections.postsOfWorkspace(owner.workspaceId, owner.environment);

/** The events of a change of status: publishing and archiving have their own. */
const statusEvents: Partial<Record<PostStatus, EventType>> = { published: 'post.published', archived: 'post.archived' };

/**
 * Creates a post, counted against the workspace's `posts` limit in its environment in the
 * same transaction as the post, its slug, its category links and its search index (so
 * racing creates never pass the limit, and the index never disagrees with the post), with
 * `post.created` (and `post.published` when it is born published).
 */
export async function createPost(deps: Deps, owner: ContentOwner, input: PostFields): Promise<PostItem> {
  const workspace = await openWorkspace(deps, owner.workspaceId);
  const categoryIds = [...new Set(input.categoryIds ?? [])];
  await requireCategories(deps, owner, categoryIds);
  const now = deps.clock.now();
  const status = input.status ?? 'draft';
  const base = {
    id: newId('post', now),
    workspaceId: owner.workspaceId,
    environment: owner.environment,
    title: input.title,
    ...(input.excerpt != null && { excerpt: input.excerpt }),
    ...(input.content != null && { content: input.content }),
    status,
    ...(status === 'published' && { publishedAt: now.toISOString() }),
    categoryIds,
    words: indexedWordsOf(input),
    revision: 1,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const scope = await workspaceScope(deps, workspace, owner.environment);
  return whileContended(
    'post',
    async (attempt) => {
      const slug = input.slug ?? candidateSlug(await freeSlug(deps, owner, 'post', slugify(input.title, 'post')), attempt);
      const item: PostItem = { ...base, slug };
      const events = [postEvent('post.created', item), ...(status === 'published' ? [postEvent('post.published', item)] : [])];
      return madeInOpenWorkspace(
        deps,
        owner.workspaceId,
        () =>
          withinLimit(deps, scope, 'posts', async (limit) => {
            await commitWithEvents(deps, events, (e) => [
              e.post.create(item).commit(),
              claimSlug(e, owner, 'post', item.slug, item.id),
              countOneMore(e.counter, collectionOf(owner)),
              countOneMoreWithin(e.usageCounter, scope, 'posts', limit, now),
              ...categoryWrites(e, owner, item.id, { added: categoryIds, removed: [] }),
              ...wordWrites(e, owner, item.id, { added: item.words, removed: [] }),
            ]);
            return item;
          }),
        // Made as its workspace is being deleted: gone with it, with the counts its create moved.
        async () => {
          await forgetPost(deps, item);
          await forgetCount(deps.db, collectionOf(owner));
          await forgetUsage(deps, owner.workspaceId);
        },
      );
    },
    async (error) => {
      const failed = failedConditions(error);
      if (failed.includes(1) && input.slug !== undefined) await refuseTakenSlug(deps, owner, 'post', input.slug, base.id);
      // A category deleted since it was checked: 422 naming it.
      if (failed.some((index) => index >= 4)) await requireCategories(deps, owner, categoryIds);
    },
  );
}

/** A post of the owner's workspace and environment; 404 for any other, as if it did not exist. */
export const getPost = loadPost;

/**
 * Changes a post, its slug, status and categories with its index in one transaction, on
 * condition that its `revision` is as read. A new title leaves the slug alone so that links
 * keep working; a change that changes nothing writes and emits nothing.
 */
export async function updatePost(deps: Deps, owner: ContentOwner, id: string, changes: PostChanges): Promise<PostItem> {
  const categoryIds = changes.categoryIds && [...new Set(changes.categoryIds)];
  if (categoryIds) await requireCategories(deps, owner, categoryIds);
  return whileContended(
    'post',
    async () => {
      for (;;) {
        const current = await loadPost(deps, owner, id);
        const next = changed(current, changes, deps.clock.now());
        if (!next) return current;
        if (transactionSize(current, next) <= maxTransactionItems) {
          await commitChange(deps, owner, current, next);
          return next;
        }
        // Too much for one transaction (every category and every word at once): the slug and
        // the categories first, which are what may be refused, without an event; then the rest,
        // read afresh, with the change's events.
        await commitChange(
          deps,
          owner,
          current,
          { ...current, slug: next.slug, categoryIds: next.categoryIds, revision: next.revision },
          [],
        );
      }
    },
    async (error) => {
      if (failedConditions(error).includes(1) && changes.slug !== undefined) await refuseTakenSlug(deps, owner, 'post', changes.slug, id);
      if (categoryIds) await requireCategories(deps, owner, categoryIds);
    },
  );
}

/** The post after the changes, or undefined when they change nothing. */
function changed(current: PostItem, changes: PostChanges, now: Date): PostItem | undefined {
  const next: PostItem = {
    ...current,
    ...(changes.title !== undefined && { title: changes.title }),
    ...(changes.slug !== undefined && { slug: changes.slug }),
    ...(changes.excerpt !== undefined && { excerpt: changes.excerpt ?? undefined }),
    ...(changes.content !== undefined && { content: changes.content ?? undefined }),
    ...(changes.status !== undefined && { status: changes.status }),
    ...(changes.categoryIds !== undefined && { categoryIds: [...new Set(changes.categoryIds)] }),
  };
  next.words = indexedWordsOf(next);
  const same = (['title', 'slug', 'excerpt', 'content', 'status'] as const).every((field) => next[field] === current[field]);
  if (same && next.categoryIds.join() === current.categoryIds.join()) return undefined;
  if (next.status === 'published' && !next.publishedAt) next.publishedAt = now.toISOString();
  return { ...next, revision: current.revision + 1, updatedAt: now.toISOString() };
}

/** The events of a change: post.updated unless only the status moved, and the status's own. */
function changeEvents(current: PostItem, next: PostItem): NewEvent[] {
  const fieldsChanged =
    (['title', 'slug', 'excerpt', 'content'] as const).some((field) => next[field] !== current[field]) ||
    next.categoryIds.join() !== current.categoryIds.join() ||
    (next.status === 'draft' && current.status !== 'draft');
  const statusEvent = next.status !== current.status ? statusEvents[next.status] : undefined;
  return [...(fieldsChanged ? [postEvent('post.updated', next)] : []), ...(statusEvent ? [postEvent(statusEvent, next)] : [])];
}

/** The items a change writes: the post, its slug's claim and release, two per category joined or left, one per word, the events. */
function transactionSize(current: PostItem, next: PostItem): number {
  const words = changeOf(current.words, next.words);
  const categories = changeOf(current.categoryIds, next.categoryIds);
  const slug = next.slug === current.slug ? 0 : 2;
  const categoryItems = 2 * (categories.added.length + categories.removed.length);
  return 1 + slug + categoryItems + words.added.length + words.removed.length + changeEvents(current, next).length;
}

/** Writes a change in one transaction, on condition that the post is as read (its `revision`), with the events that report it. */
async function commitChange(
  deps: Deps,
  owner: ContentOwner,
  current: PostItem,
  next: PostItem,
  events: readonly NewEvent[] = changeEvents(current, next),
): Promise<void> {
  await commitWithEvents(deps, events, (e) => [
    e.post
      .put(next)
      .where((attr, op) => op.eq(attr.revision, current.revision))
      .commit(),
    ...(next.slug === current.slug
      ? []
      : [claimSlug(e, owner, 'post', next.slug, next.id), releaseSlug(e, owner, 'post', current.slug, current.id)]),
    ...categoryWrites(e, owner, current.id, changeOf(current.categoryIds, next.categoryIds)),
    ...wordWrites(e, owner, current.id, changeOf(current.words, next.words)),
  ]);
}

/**
 * Deletes a post with its slug, its links (each category's count with it), its index
 * items, its counts and its `post.deleted` event (`data`: the post as it was), on condition
 * that it is as read; a write in between (a category's delete unlinking it) makes it read again.
 */
export async function deletePost(deps: Deps, owner: ContentOwner, id: string): Promise<void> {
  const counterOwner = { ownerType: 'Workspace', ownerId: owner.workspaceId, environment: owner.environment } as const;
  await whileContended('post', async () => {
    const post = await loadPost(deps, owner, id);
    await commitWithEvents(deps, [postEvent('post.deleted', post)], (e) => [
      e.post
        .delete(contentKey(owner, id))
        .where((attr, op) => op.eq(attr.revision, post.revision))
        .commit(),
      releaseSlug(e, owner, 'post', post.slug, post.id),
      countOneFewer(e.counter, collectionOf(owner)),
      countOneFewerOf(e.usageCounter, counterOwner, 'posts', deps.clock.now()),
      ...categoryWrites(e, owner, id, { added: [], removed: post.categoryIds }),
      ...wordWrites(e, owner, id, { added: [], removed: post.words }),
    ]);
  });
}
