import type * as z from 'zod/mini';
import type { EventType } from '#core/events/event-types';
import type { NewEvent } from '#core/events/outbox';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/database';
import type { PostItem } from '#core/store/items';
import { type ContentOwner, contentKey } from './content-owner.ts';
import type { post } from './post-schemas.ts';

export type PostView = z.output<typeof post>;

/** A post as the API shows it: `content` only to a credential holding posts:read-content. */
export function postView(item: PostItem, withContent: boolean): PostView {
  return {
    id: item.id,
    title: item.title,
    slug: item.slug,
    excerpt: item.excerpt ?? null,
    ...(withContent && { content: item.content ?? null }),
    status: item.status,
    published_at: item.publishedAt ?? null,
    category_ids: item.categoryIds,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
  };
}

/**
 * The event that reports a change of a post: `data` is the post with its content, and an
 * endpoint whose creator could not read content receives it without (webhooks/attempt.ts).
 */
export const postEvent = (type: EventType, item: PostItem): NewEvent => ({
  type,
  origin: { workspaceId: item.workspaceId, environment: item.environment },
  data: postView(item, true),
  withoutContent: postView(item, false),
});

/** The owner's post, or 404 (another workspace's or environment's is as absent as a deleted one). */
export async function loadPost(deps: Deps, owner: ContentOwner, id: string): Promise<PostItem> {
  const { data } = await deps.db.entities.post.get(contentKey(owner, id)).go({ ...hotPath, consistent: true });
  if (!data) throw new NotFound('post', id);
  return data;
}
