import { issueApiKey } from '#core/api-keys/api-keys';
import { recordUsage } from '#core/entitlements/recording';
import { invite } from '#core/members/invitations';
import { join } from '#core/members/members';
import { invitePendingEmail } from '#core/members/pending-invitations';
import { workspaceScope } from '#core/namespaces/workspace-scope';
import { NotFound } from '#core/platform/errors';
import { issueUserToken } from '#core/users/user-tokens';
import { createUser } from '#core/users/users';
import { createWebhookEndpoint } from '#core/webhooks/endpoints';
import { createWorkspace, deleteWorkspace } from '#core/workspaces/workspaces';
import { type TestDeps, testDeps } from '../support/deps.ts';
import { ownerPrincipal } from '../support/principals.ts';

/**
 * A workspace deleted while its members keep making things in it: keys, tokens, members,
 * invitations, usage. Whatever the interleaving, nothing of it may be left behind once the
 * delete answers, except what expires by itself (events, and records with a TTL).
 */

// Endpoints on 127.0.0.1 (no name resolves here); nothing is sent to them.
process.env.WEBHOOK_ALLOW_INSECURE = '1';

let deps: TestDeps;
let users = 0;
beforeAll(async () => {
  deps = await testDeps();
});

const newUser = () =>
  createUser(deps, { name: `racer ${++users}`, email: `racer${users}@example.com`, tier: 'enterprise', emailVerified: true });

/**
 * Every item that still names the workspace, but what is kept on purpose until its TTL:
 * events and their deliveries, endpoints retired to hear workspace.deleted, and the
 * month's meter shards (raw items, no entity). Invitations lapse by TTL too, yet a delete
 * removes them: nobody may be invited into a workspace that is gone.
 */
async function leftOf(workspaceId: string) {
  const ulid = workspaceId.slice('wks_'.length);
  const { Items = [] } = await deps.client.send(new (await import('@aws-sdk/lib-dynamodb')).ScanCommand({ TableName: deps.tableName }));
  const keptUntilTtl = (item: Record<string, unknown>) =>
    item.__edb_e__ === undefined ||
    item.__edb_e__ === 'webhookEvent' ||
    item.__edb_e__ === 'webhookDelivery' ||
    (item.__edb_e__ === 'webhookEndpoint' && item.ttl !== undefined);
  return Items.filter((item) => JSON.stringify(item).includes(ulid) && !keptUntilTtl(item)).map(
    (item) => `${item.__edb_e__} ${item.pk} ${item.sk}`,
  );
}

/** Runs `make` until the delete is over, swallowing the 404s a deleted workspace answers; counts what succeeded in `made`. */
async function keepMaking(done: () => boolean, made: number[], lane: number, make: (i: number) => Promise<unknown>) {
  for (let i = 0; !done(); i++) {
    await make(i).then(
      () => made[lane]!++,
      (error: unknown) => {
        if (!(error instanceof NotFound)) throw error;
      },
    );
  }
}

describe('deleting a workspace while things are made in it', () => {
  it.each([1, 2, 3, 4, 5])('leaves nothing behind (round %i)', async () => {
    const [owner, member, invitee] = [await newUser(), await newUser(), await newUser()];
    // Endpoints made before the delete are retired with a TTL (they hear workspace.deleted); later ones go at once.
    const home = await createWorkspace(deps, owner.id, { name: 'home' });
    const doomed = await createWorkspace(deps, owner.id, { name: 'doomed', tier: 'enterprise' });
    await join(deps, doomed.id, member.id, 'admin');
    const scope = await workspaceScope(deps, { id: doomed.id, tier: 'enterprise' }, 'live');
    const inDoomed = ownerPrincipal(owner.id, doomed.id, 'enterprise');
    let over = false;
    const made = [0, 0, 0, 0, 0, 0, 0];
    const endpointOwner = { workspaceId: doomed.id, environment: 'live' as const, actor: inDoomed };
    const making = Promise.all([
      keepMaking(
        () => over,
        made,
        0,
        (i) => issueApiKey(deps, member.id, doomed.id, { name: `key ${i}` }),
      ),
      keepMaking(
        () => over,
        made,
        1,
        (i) => issueUserToken(deps, inDoomed, doomed.id, { name: `token ${i}` }),
      ),
      keepMaking(
        () => over,
        made,
        2,
        () => invite(deps, { userId: invitee.id, workspaceId: doomed.id, role: 'member', invitedBy: owner.id }),
      ),
      keepMaking(
        () => over,
        made,
        3,
        async () => join(deps, doomed.id, (await newUser()).id, 'member'),
      ),
      keepMaking(
        () => over,
        made,
        4,
        () => recordUsage(deps, scope, { feature: 'storage', quantity: 1 }),
      ),
      keepMaking(
        () => over,
        made,
        5,
        () => createWebhookEndpoint(deps, endpointOwner, { url: 'http://127.0.0.1:9/hook', events: ['*'] }),
      ),
      keepMaking(
        () => over,
        made,
        6,
        (i) =>
          invitePendingEmail(
            deps,
            { email: `nobody-${users}-${i}@example.com`, workspaceId: doomed.id, role: 'member', invitedBy: owner.id },
            () => [],
          ),
      ),
    ]);
    // The delete begins once every kind has been made at least once, and the makers go on through it.
    while (made.some((n) => n === 0)) await new Promise((wait) => setTimeout(wait, 5));
    await deleteWorkspace(deps, ownerPrincipal(owner.id, home.id), doomed.id, { home: home.id }).finally(() => (over = true));
    await making;
    expect(await leftOf(doomed.id)).toEqual([]);
  });
});
