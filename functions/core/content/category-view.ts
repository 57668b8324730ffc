import type * as z from 'zod/mini';
import type { EventType } from '#core/events/event-types';
import type { NewEvent } from '#core/events/outbox';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { CategoryItem } from '#core/store/items';
import type { category } from './category-schemas.ts';
import { type ContentOwner, contentKey } from './content-owner.ts';

export function categoryView(item: CategoryItem): z.output<typeof category> {
  return {
    id: item.id,
    name: item.name,
    slug: item.slug,
    description: item.description ?? null,
    post_count: Math.max(0, item.postCount),
    created_at: item.createdAt,
    updated_at: item.updatedAt,
  };
}

export const categoryEvent = (type: EventType, item: CategoryItem): NewEvent => ({
  type,
  origin: { workspaceId: item.workspaceId, environment: item.environment },
  data: categoryView(item),
});

/** The owner's category, or 404: another workspace's or environment's, or one being deleted, is as absent as a deleted one. */
export async function loadCategory(deps: Deps, owner: ContentOwner, id: string): Promise<CategoryItem> {
  const { data } = await deps.db.entities.category.get(contentKey(owner, id)).go({ ...hotPath, consistent: true });
  if (!data || data.deletingAt) throw new NotFound('category', id);
  return data;
}
