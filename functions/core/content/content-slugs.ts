import { DuplicateResource } from '#core/platform/errors';
import { firstFree } from '#core/platform/slugs';
import type { Deps } from '#core/ports/deps';
import type { ContentOwner } from './content-owner.ts';
import type { TransactionEntities } from './content-writes.ts';

/**
 * Slugs of posts and categories: unique per kind among a workspace's content in one
 * environment, each held by a claim item written in its holder's transaction.
 */
export type SlugKind = 'post' | 'category';

/** Claims a slug for its holder: fails its condition when the workspace and environment have it already. */
export const claimSlug = (e: TransactionEntities, owner: ContentOwner, kind: SlugKind, slug: string, holderId: string) =>
  e.contentSlug.create({ workspaceId: owner.workspaceId, environment: owner.environment, kind, slug, holderId }).commit();

/** Frees a slug its holder gave up (only while it still holds it). */
export const releaseSlug = (e: TransactionEntities, owner: ContentOwner, kind: SlugKind, slug: string, holderId: string) =>
  e.contentSlug
    .delete({ workspaceId: owner.workspaceId, environment: owner.environment, kind, slug })
    .where((attr, op) => op.eq(attr.holderId, holderId))
    .commit();

/** The first of `base`, `base-2`, `base-3` ... that nothing of the kind holds. */
export async function freeSlug(deps: Deps, owner: ContentOwner, kind: SlugKind, base: string): Promise<string> {
  const { data } = await deps.db.entities.contentSlug.query
    .byWorkspace({ workspaceId: owner.workspaceId, kind, environment: owner.environment })
    .begins({ slug: base })
    .go({ pages: 'all' });
  return firstFree(base, new Set(data.map((claim) => claim.slug)));
}

/**
 * After a write whose slug claim failed: 409 naming the holder when another post or
 * category holds the slug (a client's own slug that is taken); nothing when `holderId`
 * holds it itself, or nobody does any more (the write was only contended).
 */
export async function refuseTakenSlug(deps: Deps, owner: ContentOwner, kind: SlugKind, slug: string, holderId: string): Promise<void> {
  const { data } = await deps.db.entities.contentSlug
    .get({ workspaceId: owner.workspaceId, kind, environment: owner.environment, slug })
    .go({ consistent: true });
  if (data && data.holderId !== holderId) throw new DuplicateResource(kind, 'slug', data.holderId);
}
