import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unreadableSecretError } from '#core/webhooks/signing-secrets';
import { parseLocalConfig } from '#lib/local/local-config';
import { startLocalRunner } from '#lib/local/runner';
import { secretKeysFile } from '#lib/local/secret-keys';
import { depsOnTable, sharedEndpoint, testTableName } from '../support/deps.ts';
import { apiClient } from '../support/local-api.ts';
import { startTestApiOnTable, type TableTestApi } from '../support/table-api.ts';
import { type ReceivedWebhook, startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Endpoints' signing secrets as the table keeps them (sealed under a key outside it): every
 * delivery still verifies with both schemes through a rotation, a record that cannot be
 * opened answers no request with a 500, and the local runner's key outlives a restart.
 */

const retryScale = 0.0001;
process.env.WEBHOOK_ALLOW_INSECURE = '1';
process.env.WEBHOOK_RETRY_SCALE = String(retryScale);

let api: TableTestApi;
let receiver: WebhookReceiver;
let workspaceId: string;
beforeAll(async () => {
  [api, receiver] = await Promise.all([startTestApiOnTable(), startWebhookReceiver()]);
  workspaceId = api.runner.bootstrap!.workspaceId;
});
afterAll(() => Promise.all([api.stop(), receiver.close()]));

const clientSecret = `whsec_${Buffer.alloc(32, 42).toString('base64')}`;
const to = (path: string) => (hook: ReceivedWebhook) => hook.path === path;

async function subscribe(path: string, body: Record<string, unknown> = {}) {
  const created = await api.call('POST', '/webhooks', { body: { url: receiver.origin + path, events: ['workspace.updated'], ...body } });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; secret: string };
}

async function rotate(id: string, gracePeriodHours: number) {
  const rotated = await api.call('POST', `/webhooks/${id}/rotate-secret`, { body: { grace_period_hours: gracePeriodHours } });
  expect(rotated.status).toBe(200);
  return rotated.body.data as { secret: string; previous_secret_expires_at: string | null };
}

let renames = 0;
const touchWorkspace = async () =>
  expect((await api.call('PATCH', `/workspaces/${workspaceId}`, { body: { name: `Renamed ${++renames}` } })).status).toBe(200);

/** Sets attributes of an endpoint's item behind the API's back, as someone with write access to the table could. */
async function overwrite(id: string, values: Record<string, unknown>) {
  const { client, close } = depsOnTable(api.tableName);
  try {
    const names = Object.keys(values);
    await client.send(
      new UpdateCommand({
        TableName: api.tableName,
        Key: { pk: `WKS#${workspaceId}`, sk: `WH#live#${id}` },
        UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, values[name]])),
      }),
    );
  } finally {
    close();
  }
}

async function storedItem(id: string) {
  const item = (await api.scan()).find((row) => row.sk === `WH#live#${id}`);
  if (!item) throw new Error(`no item for ${id}`);
  return item as { sealedSecret: string; sealedPreviousSecret?: string };
}

describe('signing through a rotation', () => {
  it('signs with the new and the old secret, each in both schemes, until the grace period is ended', async () => {
    const generated = await subscribe('/generated');
    const given = await subscribe('/given', { secret: clientSecret });
    expect(given.secret).toBe(clientSecret);
    const [newGenerated, newGiven] = [await rotate(generated.id, 1), await rotate(given.id, 1)];
    await touchWorkspace();
    const [hook] = await receiver.waitFor(1, to('/generated'));
    const [givenHook] = await receiver.waitFor(1, to('/given'));
    // verifyWebhook checks Standard Webhooks (the standardwebhooks package) and the hex HMAC alike.
    for (const secret of [generated.secret, newGenerated.secret]) expect(verifyWebhook(hook!, secret).type).toBe('workspace.updated');
    for (const secret of [clientSecret, newGiven.secret]) expect(verifyWebhook(givenHook!, secret).type).toBe('workspace.updated');

    // A rotation without grace: the secret shown signs alone.
    const alone = await rotate(generated.id, 0);
    await touchWorkspace();
    const [, last] = await receiver.waitFor(2, to('/generated'));
    expect(verifyWebhook(last!, alone.secret).type).toBe('workspace.updated');
    expect(() => verifyWebhook(last!, newGenerated.secret)).toThrow();
  });

  it('signs a test send with both secrets during the grace period', async () => {
    const endpoint = await subscribe('/tested', { secret: clientSecret });
    const rotated = await rotate(endpoint.id, 24);
    expect((await api.call('POST', `/webhooks/${endpoint.id}/test`)).body).toMatchObject({ success: true, status_code: 200 });
    const [hook] = await receiver.waitFor(1, to('/tested'));
    for (const secret of [clientSecret, rotated.secret]) expect(verifyWebhook(hook!, secret).type).toBe('webhook.test');
  });
});

describe('a stored secret that cannot be opened', () => {
  it('answers a test send with the reason, records it on the delivery, and is mended by a rotation', async () => {
    const victim = await subscribe('/victim');
    const other = await subscribe('/other');
    // Another endpoint's ciphertext, copied over: bound to that endpoint, it does not open here.
    await overwrite(victim.id, { sealedSecret: (await storedItem(other.id)).sealedSecret });

    const tested = await api.call('POST', `/webhooks/${victim.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ success: false, status_code: null, response_time_ms: 0, error: unreadableSecretError });
    expect((await api.call('GET', `/webhooks/${victim.id}`)).status).toBe(200);

    await touchWorkspace();
    await receiver.waitFor(1, to('/other'));
    let delivery: Record<string, any> = {};
    for (let i = 0; delivery.status !== 'failed' && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      [delivery] = (await api.call('GET', `/webhooks/${victim.id}/deliveries`)).body.data;
    }
    // Tried as the ladder says (a key put back heals it), and failed in the end, each attempt saying why.
    expect(delivery).toMatchObject({ status: 'failed', attempt: 6, error: unreadableSecretError });
    expect(receiver.received.filter(to('/victim'))).toEqual([]);

    const rotated = await rotate(victim.id, 24);
    // The unreadable secret signed nothing, so it gets no grace period.
    expect(rotated.previous_secret_expires_at).toBeNull();
    expect((await api.call('POST', `/webhooks/${victim.id}/test`)).body).toMatchObject({ success: true });
    const [hook] = await receiver.waitFor(1, to('/victim'));
    expect(verifyWebhook(hook!, rotated.secret).type).toBe('webhook.test');
  });

  it('refuses the previous secret moved into the current one, and the other way round', async () => {
    const endpoint = await subscribe('/swapped');
    await rotate(endpoint.id, 24);
    const { sealedSecret, sealedPreviousSecret } = await storedItem(endpoint.id);
    expect(sealedPreviousSecret).toBeDefined();
    await overwrite(endpoint.id, { sealedSecret: sealedPreviousSecret, sealedPreviousSecret: sealedSecret });
    expect((await api.call('POST', `/webhooks/${endpoint.id}/test`)).body).toMatchObject({ success: false, error: unreadableSecretError });
    await overwrite(endpoint.id, { sealedSecret, sealedPreviousSecret: sealedSecret });
    expect((await api.call('POST', `/webhooks/${endpoint.id}/test`)).body).toMatchObject({ success: false, error: unreadableSecretError });
    await overwrite(endpoint.id, { sealedSecret, sealedPreviousSecret });
    expect((await api.call('POST', `/webhooks/${endpoint.id}/test`)).body).toMatchObject({ success: true });
  });
});

describe("the local runner's key", () => {
  it('is kept in DATA_DIR, readable by its owner only, so that stored endpoints still sign after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tenant-api-keys-'));
    const otherDir = mkdtempSync(join(tmpdir(), 'tenant-api-keys-'));
    const tableName = testTableName();
    const start = async (dir: string) => {
      const env = {
        DYNAMODB_ENDPOINT: sharedEndpoint(),
        TABLE_NAME: tableName,
        PORT: '0',
        LOG_REQUESTS: '0',
        DATA_DIR: dir,
        MAIL_DIR: join(dir, 'mail'),
      };
      const runner = await startLocalRunner(parseLocalConfig(env), {}, () => {});
      return { runner, call: apiClient(runner, key) };
    };
    let key: string | undefined;
    try {
      const first = await start(dataDir);
      key = first.runner.bootstrap!.apiKey;
      const created = await apiClient(first.runner, key)('POST', '/webhooks', {
        body: { url: `${receiver.origin}/restarted`, events: ['workspace.updated'] },
      });
      expect(created.status).toBe(201);
      await first.runner.stop();
      const file = join(dataDir, secretKeysFile);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}\n$/);

      const again = await start(dataDir);
      try {
        expect((await again.call('POST', `/webhooks/${created.body.data.id}/test`)).body).toMatchObject({ success: true });
        const [hook] = await receiver.waitFor(1, to('/restarted'));
        expect(verifyWebhook(hook!, created.body.data.secret).type).toBe('webhook.test');
      } finally {
        await again.runner.stop();
      }
      // A runner with another folder has another key: the endpoint signed above with the key from the file.
      const elsewhere = await start(otherDir);
      try {
        expect((await elsewhere.call('POST', `/webhooks/${created.body.data.id}/test`)).body).toMatchObject({
          success: false,
          error: unreadableSecretError,
        });
      } finally {
        await elsewhere.runner.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});
