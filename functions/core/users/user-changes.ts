import { type Acting, personalEvents } from '#core/events/origins';
import { commitWithEvents } from '#core/events/outbox';
import { isoNow } from '#core/platform/clock';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { changeAsRead } from '#core/store/change-as-read';
import type { UserItem } from '#core/store/items';
import { userView } from './user-view.ts';

/** What may change of a user alone, without its email claim (users.ts changes the email with it). */
type UserFields = Partial<Pick<UserItem, 'name' | 'tier' | 'passwordHash' | 'emailVerifiedAt'>>;

/**
 * Changes a user as it was read (its `updatedAt` and email unchanged since), with
 * `user.updated` in the same transaction; `change` may refuse by throwing. Answers the user
 * as written.
 */
export function changeUser(deps: Deps, userId: number, acting: Acting | undefined, change: (current: UserItem) => UserFields) {
  return changeAsRead(async () => {
    const current = await readUser(deps, userId);
    const set = { ...change(current), updatedAt: isoNow(deps.clock) };
    const updated: UserItem = { ...current, ...set };
    await commitWithEvents(deps, personalEvents(updated, acting, 'user.updated', userView(updated)), ({ user }) => [
      user
        .patch({ id: userId })
        .set(set)
        .where((attr, op) => `${op.eq(attr.updatedAt, current.updatedAt)} AND ${op.eq(attr.email, current.email)}`)
        .commit(),
    ]);
    return updated;
  }, 'The user is being changed by others; try again.');
}

async function readUser(deps: Deps, id: number): Promise<UserItem> {
  const { data } = await deps.db.entities.user.get({ id }).go({ consistent: true });
  if (!data) throw new NotFound('user', String(id));
  return data;
}
