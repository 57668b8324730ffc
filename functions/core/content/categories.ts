import { commitWithEvents } from '#core/events/outbox';
import type { ListSource } from '#core/lists/list-source';
import { ConcurrencyLimit } from '#core/platform/concurrency-limit';
import { NotFound } from '#core/platform/errors';
import { idsCreatedWithin, newId } from '#core/platform/ids';
import { slugify } from '#core/platform/slugs';
import type { Deps } from '#core/ports/deps';
import { failedConditions, ignoreConditionFailure, isConditionFailure } from '#core/store/conditions';
import type { CategoryItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { collections, counted, countOneFewer, countOneMore, forgetCount } from '#core/store/list-counts';
import { madeInOpenWorkspace, openWorkspace } from '#core/tenancy/workspace-open';
import { categoryEvent, categoryView, loadCategory } from './category-view.ts';
import { type ContentOwner, contentKey } from './content-owner.ts';
import { claimSlug, freeSlug, refuseTakenSlug, releaseSlug } from './content-slugs.ts';
import { candidateSlug, whileContended } from './contention.ts';
import { loadPost } from './post-view.ts';

export interface CategoryFields {
  name: string;
  slug?: string;
  description?: string | null;
}

const collectionOf = (owner: ContentOwner) => collections.categoriesOfWorkspace(owner.workspaceId, owner.environment);

/** Creates a category with its slug and `category.created`. */
export async function createCategory(deps: Deps, owner: ContentOwner, input: CategoryFields): Promise<CategoryItem> {
  await openWorkspace(deps, owner.workspaceId);
  const now = deps.clock.now().toISOString();
  const id = newId('category', deps.clock.now());
  return whileContended(
    'category',
    async (attempt) => {
      const slug = input.slug ?? candidateSlug(await freeSlug(deps, owner, 'category', slugify(input.name, 'category')), attempt);
      const item: CategoryItem = {
        id,
        workspaceId: owner.workspaceId,
        environment: owner.environment,
        name: input.name,
        slug,
        ...(input.description != null && { description: input.description }),
        postCount: 0,
        createdAt: now,
        updatedAt: now,
      };
      return madeInOpenWorkspace(
        deps,
        owner.workspaceId,
        async () => {
          await commitWithEvents(deps, [categoryEvent('category.created', item)], (e) => [
            e.category.create(item).commit(),
            claimSlug(e, owner, 'category', slug, id),
            countOneMore(e.counter, collectionOf(owner)),
          ]);
          return item;
        },
        async () => {
          await deps.db.entities.category.delete(contentKey(owner, id)).go();
          await deps.db.entities.contentSlug.delete({ ...owner, kind: 'category', slug }).go();
          await forgetCount(deps.db, collectionOf(owner));
        },
      );
    },
    async (error) => {
      if (failedConditions(error).includes(1) && input.slug !== undefined) await refuseTakenSlug(deps, owner, 'category', input.slug, id);
    },
  );
}

export const getCategory = loadCategory;

/** The owner's categories in creation order: one Query of their partition's environment. */
export function categoriesOf(deps: Deps, owner: ContentOwner): ListSource<CategoryItem, ReturnType<typeof categoryView>> {
  const { category } = deps.db.entities;
  return {
    ...counted(deps.db, collectionOf(owner)),
    orderedBy: 'created_at',
    createdRange: (after, before) => idsCreatedWithin('category', after, before),
    read: keyOrderReader(category, 'byWorkspace', (range) => {
      const query = category.query.byWorkspace({ workspaceId: owner.workspaceId, environment: owner.environment });
      return (range ? query.between({ id: range.from }, { id: range.to }) : query).where((attr, op) => op.notExists(attr.deletingAt));
    }),
    view: async (rows) => rows.map(categoryView),
  };
}

/**
 * Changes a category's name, slug (claimed as at creation) or description, with
 * `category.updated`, on condition that it is as read (its `updatedAt` and slug): a change
 * in between makes it read again, so that no write puts back a slug another gave up.
 */
export async function updateCategory(deps: Deps, owner: ContentOwner, id: string, changes: Partial<CategoryFields>): Promise<CategoryItem> {
  return whileContended(
    'category',
    async () => {
      const current = await loadCategory(deps, owner, id);
      const next: CategoryItem = {
        ...current,
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.slug !== undefined && { slug: changes.slug }),
        ...(changes.description !== undefined && { description: changes.description ?? undefined }),
        updatedAt: deps.clock.now().toISOString(),
      };
      const set = {
        name: next.name,
        slug: next.slug,
        updatedAt: next.updatedAt,
        ...(next.description !== undefined && { description: next.description }),
      };
      await commitWithEvents(deps, [categoryEvent('category.updated', next)], (e) => {
        const patch = e.category.patch(contentKey(owner, id)).set(set);
        return [
          (next.description === undefined ? patch.remove(['description']) : patch)
            .where(
              (attr, op) =>
                `${op.eq(attr.updatedAt, current.updatedAt)} AND ${op.eq(attr.slug, current.slug)} AND ${op.notExists(attr.deletingAt)}`,
            )
            .commit(),
          ...(next.slug === current.slug
            ? []
            : [claimSlug(e, owner, 'category', next.slug, id), releaseSlug(e, owner, 'category', current.slug, id)]),
        ];
      });
      // postCount moves with posts meanwhile: the answer shows it as read.
      return next;
    },
    async (error) => {
      if (failedConditions(error).includes(1) && changes.slug !== undefined)
        await refuseTakenSlug(deps, owner, 'category', changes.slug, id);
    },
  );
}

/** Posts unlinked at once while a category is deleted. */
const parallelUnlinks = 10;

/**
 * Deletes a category: first marks it (no post may join it from then on), then removes it
 * from each of its posts, which change in nothing else (no `updated_at`, no event), then
 * deletes it with its slug, its count and `category.deleted`. A delete that was
 * interrupted is taken up again by the next one: the mark stays, and the category reads as gone.
 */
export async function deleteCategory(deps: Deps, owner: ContentOwner, id: string): Promise<void> {
  const { entities } = deps.db;
  const { data: category } = await entities.category.get(contentKey(owner, id)).go({ consistent: true });
  if (!category) throw new NotFound('category', id);
  if (!category.deletingAt) {
    await entities.category
      .patch(contentKey(owner, id))
      .set({ deletingAt: deps.clock.now().toISOString() })
      .where((attr, op) => op.notExists(attr.deletingAt))
      .go({ response: 'none' })
      .catch(ignoreConditionFailure);
  }
  const { data: links } = await entities.postCategory.query
    .byCategory({ workspaceId: owner.workspaceId, environment: owner.environment, categoryId: id })
    .go({ pages: 'all', consistent: true });
  const lanes = new ConcurrencyLimit(parallelUnlinks);
  await Promise.all(links.map((link) => lanes.run(() => unlink(deps, owner, id, link.postId))));
  try {
    await commitWithEvents(deps, [categoryEvent('category.deleted', { ...category, postCount: 0 })], (e) => [
      e.category
        .delete(contentKey(owner, id))
        .where((attr, op) => op.exists(attr.deletingAt))
        .commit(),
      releaseSlug(e, owner, 'category', category.slug, id),
      countOneFewer(e.counter, collectionOf(owner)),
    ]);
  } catch (error) {
    // A delete sent twice at once: the second finds nothing left to delete, as if it were gone before.
    if (isConditionFailure(error)) throw new NotFound('category', id);
    throw error;
  }
}

/** Takes the category out of one post, on condition that the post is as read (read again if it changed meanwhile). */
async function unlink(deps: Deps, owner: ContentOwner, categoryId: string, postId: string): Promise<void> {
  const link = { workspaceId: owner.workspaceId, environment: owner.environment, categoryId, postId };
  await whileContended('post', async () => {
    const post = await loadPost(deps, owner, postId).catch((error: unknown) => {
      if (error instanceof NotFound) return undefined;
      throw error;
    });
    if (!post?.categoryIds.includes(categoryId)) {
      await deps.db.entities.postCategory.delete(link).go();
      return;
    }
    await commitWithEvents(deps, [], (e) => [
      e.post
        .patch(contentKey(owner, postId))
        .set({ categoryIds: post.categoryIds.filter((other) => other !== categoryId), revision: post.revision + 1 })
        .where((attr, op) => op.eq(attr.revision, post.revision))
        .commit(),
      e.postCategory.delete(link).commit(),
    ]);
  });
}
