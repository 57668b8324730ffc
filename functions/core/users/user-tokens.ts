import type * as z from 'zod/mini';
import { isLive, retentionOf } from '#core/access/credential-lifecycle';
import { expiryWithin, requireHeldScopes } from '#core/access/issuance-limits';
import type { Principal } from '#core/access/principal';
import type { ListSource } from '#core/lists/list-source';
import { NotFound } from '#core/platform/errors';
import { randomBase62, sha256 } from '#core/platform/secrets';
import type { Deps } from '#core/ports/deps';
import { commitOrThrow, goneAsNotFound, ignoreConditionFailure } from '#core/store/conditions';
import type { UserTokenItem } from '#core/store/items';
import { keyOrderReader } from '#core/store/key-order';
import { collections, counted, countOneFewer, countOneMore } from '#core/store/list-counts';
import { madeInOpenWorkspace } from '#core/tenancy/workspace-open';
import type { createdUserToken, userToken } from './user-token-schemas.ts';
import { nextId } from './users.ts';

export function userTokenView(item: UserTokenItem): z.output<typeof userToken> {
  return {
    id: item.id,
    name: item.name,
    abilities: item.abilities,
    workspace_id: item.workspaceId,
    last_used_at: item.lastUsedAt ?? null,
    expires_at: item.expiresAt ?? null,
    created_at: item.createdAt,
  };
}

export interface NewUserToken {
  name: string;
  abilities?: string[];
  expiresAt?: string | null;
}

/**
 * Issues a token `<id>|<secret>` for the calling user, acting in the request's workspace,
 * shown once. A token never carries abilities its creator does not hold. Like sessions and
 * OAuth tokens, a person's own credentials emit no events: a workspace's endpoints would
 * show its other members the token's name and abilities.
 */
export async function issueUserToken(
  deps: Deps,
  principal: Principal,
  workspaceId: string,
  input: NewUserToken,
): Promise<z.output<typeof createdUserToken>> {
  const abilities = input.abilities ?? principal.scopes;
  requireHeldScopes(principal, abilities, 'A token cannot be given abilities its creator does not hold');
  const now = deps.clock.now();
  const expiresAt = expiryWithin(principal, input.expiresAt, now);
  const secret = randomBase62(40);
  const item: UserTokenItem = {
    id: await nextId(deps, 'userToken'),
    userId: principal.userId,
    workspaceId,
    name: input.name,
    abilities,
    secretDigest: sha256(secret),
    expiresAt,
    createdAt: now.toISOString(),
    ...retentionOf(expiresAt),
  };
  await madeInOpenWorkspace(
    deps,
    workspaceId,
    () =>
      commitOrThrow(() =>
        deps.db.transaction
          .write(({ userToken, counter }) => [
            userToken.create(item).commit(),
            countOneMore(counter, collections.userTokensOfUser(principal.userId)),
          ])
          .go(),
      ),
    () => deleteUserToken(deps, item).catch(ignoreConditionFailure),
  );
  return { ...userTokenView(item), token: `${item.id}|${secret}` };
}

/** The user's tokens in id (creation) order; the Query drops those past their TTL, as isLive. */
export function userTokensOf(deps: Deps, userId: number): ListSource<UserTokenItem, ReturnType<typeof userTokenView>> {
  const nowSeconds = deps.clock.now().getTime() / 1000;
  const { userToken } = deps.db.entities;
  return {
    ...counted(deps.db, collections.userTokensOfUser(userId)),
    orderedBy: 'created_at',
    read: keyOrderReader(userToken, 'byUser', () =>
      userToken.query.byUser({ userId }).where((attr, op) => `${op.notExists(attr.ttl)} OR ${op.gt(attr.ttl, nowSeconds)}`),
    ),
    view: async (rows) => rows.map(userTokenView),
  };
}

/**
 * Revokes one of the user's own tokens (deleting it, with its count); anyone else's is
 * 404. The revoking credential must hold every ability of the token, so that a narrow
 * token cannot end the wider ones of its user.
 */
export async function revokeUserToken(deps: Deps, principal: Pick<Principal, 'userId' | 'scopes'>, id: number): Promise<void> {
  const { userId } = principal;
  const { data } = await deps.db.entities.userToken.get({ id }).go({ consistent: true });
  if (!data || data.userId !== userId || !isLive(data, deps.clock.now())) throw new NotFound('user_token', String(id));
  requireHeldScopes(principal, data.abilities, 'Revoking would end a token with abilities your credential does not hold');
  await goneAsNotFound('user_token', String(id), () => deleteUserToken(deps, data));
}

/** Deletes a token with its count; a condition failure when it is gone already. */
export const deleteUserToken = (deps: Deps, token: Pick<UserTokenItem, 'id' | 'userId'>) =>
  commitOrThrow(() =>
    deps.db.transaction
      .write(({ userToken, counter }) => [
        userToken
          .delete({ id: token.id })
          .where((attr, op) => op.eq(attr.userId, token.userId))
          .commit(),
        countOneFewer(counter, collections.userTokensOfUser(token.userId)),
      ])
      .go(),
  );
