import type { Environment } from '#core/platform/environments';
import type { EventType } from './event-types.ts';
import type { NewEvent } from './outbox.ts';

/** Who acts, as far as an event cares: the credential's environment; none (admin CLI, mailed links, bootstrap) acts `live`. */
export interface Acting {
  environment?: Environment;
}

/** An event of a workspace's resource, in the acting credential's environment. */
export const eventIn = (workspaceId: string, acting: Acting | undefined, type: EventType, data: object): NewEvent => ({
  type,
  origin: { workspaceId, environment: acting?.environment ?? 'live' },
  data,
});

/**
 * The event of a change to a user or one of their tokens, which belongs to no workspace:
 * it goes to the user's personal workspace. An account without one (made by createUser
 * alone, or before accounts recorded it) emits none.
 */
export const personalEvents = (
  user: { personalWorkspaceId?: string },
  acting: Acting | undefined,
  type: EventType,
  data: object,
): NewEvent[] => (user.personalWorkspaceId ? [eventIn(user.personalWorkspaceId, acting, type, data)] : []);
