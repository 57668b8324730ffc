import type { EntityItem } from 'electrodb';
import { expiryWithin, type Principal } from '../auth/principal.ts';
import { scopesBeyond } from '../auth/scopes.ts';
import { randomBase62, sha256 } from '../auth/secrets.ts';
import type { Deps } from '../deps.ts';
import { AccessDenied, NotFound, ValidationFailed } from '../errors.ts';
import type { ListSource } from '../lists/list-source.ts';
import { commitOrThrow, goneAsNotFound } from '../store/conditions.ts';
import type { Database } from '../store/database.ts';
import { keyOrderReader } from '../store/key-order.ts';
import { collections, counted, countOneFewer, countOneMore } from '../store/list-counts.ts';
import { prunableFrom } from '../store/table.ts';
import { nextId } from './users.ts';

type UserTokenItem = EntityItem<Database['entities']['userToken']>;

/** How long an expired token is kept (answering TOKEN_EXPIRED) before TTL may drop it. */
const expiredTokenRetentionSeconds = 30 * 24 * 3600;

export function userTokenView(item: UserTokenItem) {
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
 * shown once. A token never carries abilities its creator does not hold.
 */
export async function issueUserToken(deps: Deps, principal: Principal, workspaceId: string, input: NewUserToken) {
  const abilities = input.abilities ?? principal.scopes;
  const beyond = scopesBeyond(principal.scopes, abilities);
  if (beyond.length) throw new AccessDenied(`A token cannot be given abilities its creator does not hold: ${beyond.join(', ')}.`);
  const now = deps.clock.now();
  if (input.expiresAt && Date.parse(input.expiresAt) <= now.getTime()) {
    throw new ValidationFailed({ expires_at: ['must be in the future'] });
  }
  const requested = expiryWithin(principal, input.expiresAt);
  const expiresAt = requested ? new Date(requested).toISOString() : undefined;
  const secret = randomBase62(40);
  const ttl = expiresAt ? Math.floor(Date.parse(expiresAt) / 1000) + expiredTokenRetentionSeconds : undefined;
  const item: UserTokenItem = {
    id: await nextId(deps, 'userToken'),
    userId: principal.userId,
    workspaceId,
    name: input.name,
    abilities,
    secretDigest: sha256(secret),
    expiresAt,
    createdAt: now.toISOString(),
    ttl,
    prunableAt: ttl === undefined ? undefined : prunableFrom(ttl),
  };
  await commitOrThrow(() =>
    deps.db.transaction
      .write(({ userToken, counter }) => [userToken.create(item).commit(), countOneMore(counter, collections.userTokensOfUser(principal.userId))])
      .go(),
  );
  return { ...userTokenView(item), token: `${item.id}|${secret}` };
}

/** Past its TTL a token is gone, whether or not DynamoDB has removed it yet. */
const tokenIsLive = (item: UserTokenItem, now: Date) => item.ttl === undefined || item.ttl * 1000 > now.getTime();

/** The user's tokens in id (creation) order; the Query drops those past their TTL, as tokenIsLive. */
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

/** Revokes one of the user's own tokens (deleting it, with its count); anyone else's is 404. */
export async function revokeUserToken(deps: Deps, userId: number, id: number): Promise<void> {
  const { data } = await deps.db.entities.userToken.get({ id }).go({ consistent: true });
  if (!data || data.userId !== userId || !tokenIsLive(data, deps.clock.now())) throw new NotFound('user_token', String(id));
  await goneAsNotFound('user_token', String(id), () =>
    commitOrThrow(() =>
      deps.db.transaction
        .write(({ userToken, counter }) => [
          userToken.delete({ id }).where((attr, op) => op.eq(attr.userId, userId)).commit(),
          countOneFewer(counter, collections.userTokensOfUser(userId)),
        ])
        .go(),
    ),
  );
}
