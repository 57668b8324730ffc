import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import type { Tier } from '../tiers.ts';

/** The next integer user id, from an atomic counter. */
async function nextUserId(deps: Deps): Promise<number> {
  const { data } = await deps.db.entities.counter.update({ name: 'user' }).add({ value: 1 }).go({ response: 'all_new' });
  if (typeof data.value !== 'number') throw new Error('user id counter returned no value');
  return data.value;
}

export interface NewUser {
  name: string;
  email: string;
  tier: Tier;
  password?: string;
}

export async function createUser(deps: Deps, input: NewUser) {
  const now = isoNow(deps.clock);
  const id = await nextUserId(deps);
  const { data } = await deps.db.entities.user
    .create({
      id,
      name: input.name,
      email: input.email.toLowerCase(),
      tier: input.tier,
      passwordHash: input.password ? await deps.hasher.hash(input.password) : undefined,
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .go();
  return data;
}

/** True before anyone has been created: the local runner bootstraps only then. */
export async function noUsersYet(deps: Deps): Promise<boolean> {
  const { data } = await deps.db.entities.counter.get({ name: 'user' }).go({ consistent: true });
  return !data;
}
