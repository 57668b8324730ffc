import type * as z from 'zod/mini';
import type { UserItem } from '#core/store/items';
import type { Role } from '#core/store/roles';
import type { member, user } from './user-schemas.ts';

/** A user as the API shows them. */
export function userView(item: UserItem): z.output<typeof user> {
  return {
    id: item.id,
    name: item.name,
    email: item.email,
    tier: item.tier,
    email_verified_at: item.emailVerifiedAt ?? null,
    created_at: item.createdAt,
  };
}

/** A member as GET /users lists them: the user with their role in the workspace; what `member.added` carries. */
export const memberView = (user: UserItem, role: Role): z.output<typeof member> => ({ ...userView(user), role });
