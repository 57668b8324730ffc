import { track } from '#core/pixel/tracking';
import { createUser } from '#core/users/users';
import { createWorkspace, updateWorkspace } from '#core/workspaces/workspaces';
import { countDynamoDbCalls } from '../../bench/counters.ts';
import { type TestDeps, testDeps } from '../support/deps.ts';

/**
 * What one tracked event costs in DynamoDB calls, counted at the document client against
 * DynamoDB Local: three writes for an accepted event (the address's rate window, the
 * event, the day's rollup) and two reads (the site, and whether the visitor was seen
 * today); one write for anything not counted, and none for a body refused before.
 */

const calls = countDynamoDbCalls();
let deps: TestDeps;
const host = 'costs.example.com';
const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.${n} Safari/537.36`;

beforeAll(async () => {
  deps = await testDeps({ documentClient: calls.attach });
  const user = await createUser(deps, { name: 'Costs', email: 'costs@example.com', tier: 'pro' });
  const workspace = await createWorkspace(deps, user.id, { name: 'Costs' });
  await updateWorkspace(deps, { userId: user.id }, workspace.id, { settings: { pixel: { enabled: true, domains: [host] } } });
});
afterAll(() => deps.close());

const writes = (snapshot: Record<string, number>) =>
  Object.entries(snapshot)
    .filter(([command]) => /^(PutItem|UpdateItem|DeleteItem|TransactWriteItems|BatchWriteItem)/.test(command))
    .reduce((total, [, n]) => total + n, 0);

it('an accepted event costs three writes and two reads, a new visitor or not', async () => {
  for (const [visitor, event] of [
    [1, 'pageview'],
    [1, 'pageview'],
    [2, 'signup'],
  ] as const) {
    calls.reset();
    const body = { event, url: `https://${host}/pricing`, referrer: 'https://news.example.org/' };
    expect(await track(deps, { body, address: '203.0.113.7', userAgentHeader: browser(visitor) })).toBe(true);
    expect(calls.snapshot()).toEqual({ UpdateItemCommand: 2, PutItemCommand: 1, GetItemCommand: 1, 'QueryCommand (consistent)': 1 });
    expect(writes(calls.snapshot())).toBe(3);
  }
});

it('an event that is not counted costs the rate window alone, and a read of the site where it must be looked up', async () => {
  calls.reset();
  expect(
    await track(deps, { body: { event: 'pageview', url: `https://${host}/` }, address: '203.0.113.8', userAgentHeader: 'Googlebot/2.1' }),
  ).toBe(false);
  expect(calls.snapshot()).toEqual({ UpdateItemCommand: 1 });
  calls.reset();
  expect(
    await track(deps, {
      body: { event: 'pageview', url: 'https://unknown.example.com/' },
      address: '203.0.113.8',
      userAgentHeader: browser(3),
    }),
  ).toBe(false);
  expect(calls.snapshot()).toEqual({ UpdateItemCommand: 1, GetItemCommand: 1 });
});
