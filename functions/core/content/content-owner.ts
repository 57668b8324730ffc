import type { Principal } from '#core/access/principal';
import { contentScope, grants } from '#core/access/scopes';
import type { EventOrigin } from '#core/events/outbox';

/**
 * Whose content a request acts on: its workspace's, in the acting credential's environment
 * (a test key reads and writes test posts and categories only). It is also where their
 * events belong, and what the `posts` limit counts in.
 */
export type ContentOwner = EventOrigin;

/** The same content, read by a credential that may or may not see posts' `content`. */
export interface ContentReader extends ContentOwner {
  readsContent: boolean;
}

/** The content a request reaches, and whether its credential may see posts' bodies. */
export const contentReaderOf = ({ principal, workspaceId }: { principal: Principal; workspaceId: string }): ContentReader => ({
  workspaceId,
  environment: principal.environment,
  readsContent: grants(principal.scopes, contentScope),
});

/** An item's key in its workspace's partition: the workspace, the environment and its id. */
export const contentKey = (owner: ContentOwner, id: string) => ({ workspaceId: owner.workspaceId, environment: owner.environment, id });
