import { ValidationFailed } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { CategoryItem } from '#core/store/items';
import { type ContentOwner, contentKey } from './content-owner.ts';

/** The owner's categories of these ids that exist and are not being deleted, by id (one BatchGetItem per 100). */
export async function categoriesById(deps: Deps, owner: ContentOwner, ids: readonly string[]): Promise<Map<string, CategoryItem>> {
  if (!ids.length) return new Map();
  const { data } = await deps.db.entities.category.get(ids.map((id) => contentKey(owner, id))).go({ ...hotPath, consistent: true });
  return new Map(data.filter((item) => !item.deletingAt).map((item) => [item.id, item]));
}

/** Refuses category ids that are not the owner's (another workspace's or environment's, deleted, or never made): 422 naming them. */
export async function requireCategories(deps: Deps, owner: ContentOwner, ids: readonly string[]): Promise<void> {
  const found = await categoriesById(deps, owner, ids);
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) {
    throw new ValidationFailed({ category_ids: [`${unknown.join(', ')}: no such category in this workspace and environment`] });
  }
}
