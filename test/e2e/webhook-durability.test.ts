import { startTestApiOnTable, type TableTestApi } from '../support/table-api.ts';
import { type ReceivedWebhook, startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';

// The ladder at a hundredth of its length: attempt 2 after 0.6 s, attempt 3 after 3 s more.
process.env.WEBHOOK_ALLOW_INSECURE = '1';
process.env.WEBHOOK_RETRY_SCALE = '0.01';
// The failed relays below are logged as warnings, on purpose; only errors would be news here.
process.env.LOG_LEVEL = 'ERROR';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const to = (path: string) => (hook: ReceivedWebhook) => hook.path === path;

async function subscribe(api: TableTestApi, path: string) {
  const created = await api.call('POST', '/webhooks', { body: { url: receiver.origin + path, events: ['workspace.updated'] } });
  if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data as { id: string; secret: string };
}

async function renameWorkspace(api: TableTestApi, key: string | undefined, name: string) {
  const { body } = await api.call('GET', '/workspaces', { key });
  const renamed = await api.call('PATCH', `/workspaces/${body.data[0].id}`, { key, body: { name } });
  expect(renamed.status).toBe(200);
}

describe('webhooks are never lost', () => {
  it('delivers an event whose relay to fan-out failed after the write: the sweeper fans it out', async () => {
    const api = await startTestApiOnTable({
      overrides: {
        eventRelay: {
          relay: async () => {
            throw new Error('the queue is down');
          },
        },
      },
    });
    try {
      const endpoint = await subscribe(api, '/after-outage');
      await renameWorkspace(api, undefined, 'Outage');
      const [hook] = await receiver.waitFor(1, to('/after-outage'));
      expect(verifyWebhook(hook, endpoint.secret)).toMatchObject({ type: 'workspace.updated', data: { name: 'Outage' } });
    } finally {
      await api.stop();
    }
  });

  it('completes every pending delivery after the runner restarts in the middle of the ladder', async () => {
    const first = await startTestApiOnTable();
    const adminKey = first.adminKey!;
    const paths = ['/restart-a', '/restart-b', '/restart-c'];
    const endpoints: Array<{ id: string; secret: string }> = [];
    for (const path of paths) {
      endpoints.push(await subscribe(first, path));
      receiver.answer(path, [500, 500]);
    }
    await renameWorkspace(first, undefined, 'Before the restart');
    await Promise.all(paths.map((path) => receiver.waitFor(2, to(path))));
    await first.stop();

    const second = await startTestApiOnTable({ tableName: first.tableName });
    try {
      const delivered = await Promise.all(paths.map((path) => receiver.waitFor(3, to(path), 20_000)));
      delivered.forEach((hooks, i) => {
        for (const hook of hooks) verifyWebhook(hook, endpoints[i].secret);
        expect(hooks.map((hook) => hook.answered)).toEqual([500, 500, 200]);
      });
      for (const endpoint of endpoints) {
        let listed = await second.call('GET', `/webhooks/${endpoint.id}/deliveries`, { key: adminKey });
        for (let i = 0; listed.body.data[0].status !== 'success' && i < 50; i++) {
          await new Promise((r) => setTimeout(r, 100));
          listed = await second.call('GET', `/webhooks/${endpoint.id}/deliveries`, { key: adminKey });
        }
        expect(listed.body.data).toEqual([expect.objectContaining({ status: 'success', attempt: 3, response_code: 200 })]);
      }
    } finally {
      await second.stop();
    }
  });
});
