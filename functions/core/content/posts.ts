import { countOneFewerOf, countOneMoreWithin, withinLimit } from '#core/entitlements/limited-counts';
import { forgetUsage } from '#core/entitlements/usage';
import type { EventType } from '#core/events/event-types';
import { commitWithEvents, type NewEvent } from '#core/events/outbox';
import { workspaceScope } from '#core/namespaces/workspace-scope';
import { DuplicateResource, NotFound } from '#core/platform/errors';
import { newId } from '#core/platform/ids';
import { firstFree, slugify } from '#core/platform/slugs';
import type { Deps } from '#core/ports/deps';
import { failedConditions, isConditionFailure } from '#core/store/conditions';
import type { PostStatus } from '#core/store/entities/post-status';
import type { PostItem } from '#core/store/items';
import { collections, countOneFewer, countOneMore, forgetCount } from '#core/store/list-counts';
import { madeInOpenWorkspace } from '#core/tenancy/workspace-open';
import { requireCategories } from './categories-in-use.ts';
import { type ContentOwner, contentKey } from './content-owner.ts';
import { forgetPost } from './content-purge.ts';
import { categoryWrites, claimSlug, maxTransactionItems, releaseSlug, type TransactionEntities, wordWrites } from './content-writes.ts';
import { loadPost, postEvent } from './post-view.ts';
import { indexedWordsOf, wordChanges } from './words.ts';

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

/** Auto slugs are tried this often when racing creates take the one chosen. */
const slugAttempts = 4;

/** The first of `base`, `base-2` ... that no post of the owner holds. */
async function freeSlug(deps: Deps, owner: ContentOwner, base: string): Promise<string> {
  const { data } = await deps.db.entities.contentSlug.query
    .byWorkspace({ workspaceId: owner.workspaceId, kind: 'post', environment: owner.environment })
    .begins({ slug: base })
    .go({ pages: 'all' });
  return firstFree(base, new Set(data.map((claim) => claim.slug)));
}

/** 409 naming the slug's holder, when a client's own slug is taken. */
async function slugTaken(deps: Deps, owner: ContentOwner, slug: string): Promise<never> {
  const { data } = await deps.db.entities.contentSlug
    .get({ workspaceId: owner.workspaceId, kind: 'post', environment: owner.environment, slug })
    .go({ consistent: true });
  throw new DuplicateResource('post', 'slug', data?.holderId);
}

/** The events of a change of status: publishing and archiving have their own. */
const statusEvents: Partial<Record<PostStatus, EventType>> = { published: 'post.published', archived: 'post.archived' };

/**
 * Creates a post, counted against the workspace's `posts` limit in its environment in the
 * same transaction as the post, its slug, its category links and its search index (so
 * racing creates never pass the limit, and the index never disagrees with the post), with
 * `post.created` (and `post.published` when it is born published).
 */
export async function createPost(deps: Deps, owner: ContentOwner, input: PostFields): Promise<PostItem> {
  const { data: workspace } = await deps.db.entities.workspace.get({ id: owner.workspaceId }).go();
  if (!workspace || workspace.deletingAt) throw new NotFound('workspace', owner.workspaceId);
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
  for (let attempt = 1; ; attempt++) {
    const item: PostItem = { ...base, slug: input.slug ?? (await freeSlug(deps, owner, slugify(input.title, 'post'))) };
    const events = [postEvent('post.created', item), ...(status === 'published' ? [postEvent('post.published', item)] : [])];
    try {
      return await madeInOpenWorkspace(
        deps,
        owner.workspaceId,
        () =>
          withinLimit(deps, scope, 'posts', async (limit) => {
            await commitWithEvents(deps, events, (e) => [
              e.post.create(item).commit(),
              claimSlug(e, owner, 'post', item.slug, item.id),
              countOneMore(e.counter, collectionOf(owner)),
              countOneMoreWithin(e.usageCounter, scope, 'posts', limit, now),
              ...categoryWrites(e, owner, item.id, categoryIds, []),
              ...wordWrites(e, owner, item.id, item.words, []),
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
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const failed = failedConditions(error);
      if (failed.includes(1)) {
        if (input.slug !== undefined) await slugTaken(deps, owner, item.slug);
        if (attempt < slugAttempts) continue;
      }
      // A category deleted since it was checked: 422 naming it.
      if (failed.some((index) => index >= 4)) await requireCategories(deps, owner, categoryIds);
      throw error;
    }
  }
}

/** A post of the owner's workspace and environment; 404 for any other, as if it did not exist. */
export const getPost = loadPost;

/**
 * Changes a post: its fields, its slug (claimed as at creation; the title's change leaves
 * the slug alone, so that links keep working), its status (publishing sets `published_at`
 * the first time only) and its categories, with its index, in one transaction on condition
 * that the post is as read (its `revision`); a write in between makes it read again. Emits
 * `post.updated` for a change of fields, and `post.published` or `post.archived` for the
 * status; a change that changes nothing writes nothing and emits nothing.
 */
export async function updatePost(deps: Deps, owner: ContentOwner, id: string, changes: PostChanges): Promise<PostItem> {
  if (changes.categoryIds) await requireCategories(deps, owner, [...new Set(changes.categoryIds)]);
  for (let attempt = 1; ; attempt++) {
    const current = await loadPost(deps, owner, id);
    const next = changed(current, changes, deps.clock.now());
    if (!next) return current;
    try {
      await commitChange(deps, owner, current, next);
      return next;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const failed = failedConditions(error);
      const slugIndex = 1;
      if (failed.includes(slugIndex) && next.slug !== current.slug) await slugTaken(deps, owner, next.slug);
      if (changes.categoryIds) await requireCategories(deps, owner, [...new Set(changes.categoryIds)]);
      if (attempt >= 3) throw error;
    }
  }
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

/**
 * Writes a change in one transaction; a change too large for one (every category and
 * every word at once) moves the categories first, on the same condition, then the rest.
 */
async function commitChange(deps: Deps, owner: ContentOwner, current: PostItem, next: PostItem): Promise<void> {
  const words = wordChanges(current.words, next.words);
  const categories = wordChanges(current.categoryIds, next.categoryIds);
  const slugWrites = (e: TransactionEntities) =>
    next.slug === current.slug
      ? []
      : [claimSlug(e, owner, 'post', next.slug, next.id), releaseSlug(e, owner, 'post', current.slug, current.id)];
  const events = changeEvents(current, next);
  const size =
    1 + 2 + 2 * (categories.added.length + categories.removed.length) + words.added.length + words.removed.length + events.length;
  let from = current;
  if (size > maxTransactionItems) {
    const moved: PostItem = { ...current, categoryIds: next.categoryIds, revision: current.revision + 1 };
    await commitWithEvents(deps, [], (e) => [
      e.post
        .put(moved)
        .where((attr, op) => op.eq(attr.revision, current.revision))
        .commit(),
      ...categoryWrites(e, owner, current.id, categories.added, categories.removed),
    ]);
    from = moved;
    next = { ...next, revision: moved.revision + 1 };
  }
  const movedCategories = from === current ? categories : { added: [], removed: [] };
  await commitWithEvents(deps, events, (e) => [
    e.post
      .put(next)
      .where((attr, op) => op.eq(attr.revision, from.revision))
      .commit(),
    ...slugWrites(e),
    ...categoryWrites(e, owner, current.id, movedCategories.added, movedCategories.removed),
    ...wordWrites(e, owner, current.id, words.added, words.removed),
  ]);
}

/**
 * Deletes a post with its slug, its links (each category's count with it), its index
 * items, its counts and its `post.deleted` event (`data`: the post as it was), on condition
 * that it is as read; a write in between (a category's delete unlinking it) makes it read again.
 */
export async function deletePost(deps: Deps, owner: ContentOwner, id: string): Promise<void> {
  const counterOwner = { ownerType: 'Workspace', ownerId: owner.workspaceId, environment: owner.environment } as const;
  for (let attempt = 1; ; attempt++) {
    const post = await loadPost(deps, owner, id);
    try {
      return await commitWithEvents(deps, [postEvent('post.deleted', post)], (e) => [
        e.post
          .delete(contentKey(owner, id))
          .where((attr, op) => op.eq(attr.revision, post.revision))
          .commit(),
        releaseSlug(e, owner, 'post', post.slug, post.id),
        countOneFewer(e.counter, collectionOf(owner)),
        countOneFewerOf(e.usageCounter, counterOwner, 'posts', deps.clock.now()),
        ...categoryWrites(e, owner, id, [], post.categoryIds),
        ...wordWrites(e, owner, id, [], post.words),
      ]);
    } catch (error) {
      if (!isConditionFailure(error) || attempt >= 3) throw error;
    }
  }
}
