import { existsSync } from 'node:fs';
import { UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { login } from '#core/accounts/sessions';
import { recordingGatewayKeys } from '#core/adapters/gateway-keys/recording-gateway-keys';
import { issueApiKey } from '#core/api-keys/api-keys';
import { tableDesign } from '#core/store/table';
import { createWorkspace } from '#core/workspaces/workspaces';
import { parseLocalConfig } from '#lib/local/local-config';
import { type LocalRunner, startLocalRunner } from '#lib/local/runner';
import { ensureTable } from '#lib/local/table-setup';
import { type AdminRun, runAdmin } from '../support/admin-cli.ts';
import { depsOnTable, manualClock, testTableName } from '../support/deps.ts';
import { apiClient } from '../support/local-api.ts';

type Run = AdminRun;

const endpoint = process.env.DYNAMODB_ENDPOINT!;
const tableName = testTableName();

/** The admin CLI against this file's table. */
const admin = (args: string[], env: Record<string, string> = {}): Promise<Run> => runAdmin(tableName, args, env);
/** The same as its own process, as an operator runs it. */
const adminProcess = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  runAdmin(tableName, args, env, { asProcess: true });

/** The last stderr line: where a failure is reported, in one line. */
const failureLine = (run: Run) => run.stderr.trim().split('\n').at(-1)!;
const printedValue = (run: Run, label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(run.stdout)?.[1];

const { client, close } = depsOnTable(tableName);
let bootstrapped: { apiKey: string; email: string; password: string; workspaceId: string; userId: number };

// The CLI never creates a table (a mistyped name must not start a second store): the test
// makes it as the local runner would. DynamoDB Local runs TTL on the real clock; it is
// turned off so that only the pruning job removes the items the prune test plants.
beforeAll(async () => {
  await ensureTable(client, tableName);
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: false },
    }),
  );
});

afterAll(close);

describe('admin CLI', () => {
  it('lists its commands, and explains each one with --help', async () => {
    const [overview, commandHelp] = await Promise.all([adminProcess(['--help']), admin(['oauth-client', 'create', '--help'])]);
    expect(overview.status).toBe(0);
    for (const name of ['bootstrap', 'create-user', 'suspend', 'resume', 'prune', 'gateway-keys reconcile', 'oauth-client create'])
      expect(overview.stdout).toContain(name);
    expect(commandHelp.status).toBe(0);
    expect(commandHelp.stdout).toContain('--redirect-uri <uri>');
  });

  it('bootstraps an empty store once, printing the credentials; a second run creates nothing and says so', async () => {
    const first = await admin(['bootstrap', '--email', 'ops@example.com', '--password', 'a long password']);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('shown once');
    bootstrapped = {
      apiKey: printedValue(first, 'API key')!,
      email: printedValue(first, 'email')!,
      password: 'a long password',
      workspaceId: printedValue(first, 'workspace')!,
      userId: Number(printedValue(first, 'user')),
    };
    expect(bootstrapped).toMatchObject({
      apiKey: expect.stringMatching(/^sk_live_\w{32}$/),
      email: 'ops@example.com',
      workspaceId: expect.stringMatching(/^wks_/),
    });

    const second = await admin(['bootstrap']);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('Already bootstrapped');
    expect(second.stdout).not.toContain('sk_live_');
  });

  it('creates a user with a verified email and a workspace of their own, who can log in at once; refuses a taken email with 409 in one line', async () => {
    const created = await admin(['create-user', '--email', 'kay@example.com', '--name', 'Kay', '--tier', 'pro', '--admin']);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/Created user \d+: Kay <kay@example.com>, tier pro, platform admin/);
    expect(created.stdout).toMatch(/workspace: wks_[0-9A-Z]{26} \(theirs, tier pro\)/);
    const password = /password: (\S{8,})/.exec(created.stdout)![1]!;
    const deps = depsOnTable(tableName);
    const session = await login(deps, { email: 'kay@example.com', password, sourceIp: '203.0.113.6' });
    expect(session.user.email_verified_at).toEqual(expect.any(String));
    deps.close();

    const again = await admin(['create-user', '--email', 'KAY@example.com', '--name', 'Kay again']);
    expect(again.status).toBe(1);
    expect(failureLine(again)).toBe('admin create-user: A user with this email already exists. (409 DUPLICATE_RESOURCE)');
  });

  describe('suspension, as a client of the local runner sees it', () => {
    let runner: LocalRunner;
    const getWorkspace = () => apiClient(runner, bootstrapped.apiKey)('GET', `/workspaces/${bootstrapped.workspaceId}`);

    beforeAll(async () => {
      runner = await startLocalRunner(
        parseLocalConfig({ DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, PORT: '0', LOG_REQUESTS: '0', DATA_DIR: 'memory' }),
      );
    });
    afterAll(() => runner.stop());

    it('suspend makes the workspace answer 403 WORKSPACE_SUSPENDED with when and why; resume serves it again', async () => {
      expect((await getWorkspace()).status).toBe(200);

      const suspended = await admin(['suspend', '--workspace', bootstrapped.workspaceId, '--reason', 'Invoice 42 unpaid']);
      expect(suspended.status).toBe(0);
      expect(suspended.stdout).toContain(`Suspended workspace ${bootstrapped.workspaceId}`);
      const refused = await getWorkspace();
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        error: 'access_denied',
        error_code: 'WORKSPACE_SUSPENDED',
        meta: { suspended_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), reason: 'Invoice 42 unpaid' },
      });

      // ULIDs are case-insensitive: the lower-case spelling names the same workspace.
      const resumed = await admin(['resume', '--workspace', `wks_${bootstrapped.workspaceId.slice(4).toLowerCase()}`]);
      expect(resumed.status).toBe(0);
      expect((await getWorkspace()).status).toBe(200);
    });

    it('refuses to resume a workspace that is not suspended, or to suspend one again for the same reason, in one line; a new reason is taken', async () => {
      const notSuspended = await admin(['resume', '--workspace', bootstrapped.workspaceId]);
      expect([notSuspended.status, failureLine(notSuspended)]).toEqual([
        1,
        expect.stringMatching(/^admin resume: .* \(409 STATE_CONFLICT\)$/),
      ]);
      expect((await admin(['suspend', '--workspace', bootstrapped.workspaceId, '--reason', 'audit'])).status).toBe(0);
      const again = await admin(['suspend', '--workspace', bootstrapped.workspaceId, '--reason', 'audit']);
      expect([again.status, failureLine(again)]).toEqual([1, expect.stringMatching(/^admin suspend: .* \(409 STATE_CONFLICT\)$/)]);
      const reworded = await admin(['suspend', '--workspace', bootstrapped.workspaceId, '--reason', 'audit, week 2']);
      expect([reworded.status, reworded.stdout]).toEqual([0, expect.stringContaining(': audit, week 2')]);
      expect((await getWorkspace()).body.meta.reason).toBe('audit, week 2');
      expect((await admin(['resume', '--workspace', bootstrapped.workspaceId])).status).toBe(0);
    });

    it("tier sets a workspace's tier, and a user's own tier; an unknown user or a missing target is said in one line", async () => {
      const changed = await admin(['tier', '--workspace', bootstrapped.workspaceId, '--tier', 'agency']);
      expect([changed.status, changed.stdout.trim()]).toEqual([0, expect.stringMatching(/is now on tier agency\.$/)]);
      expect((await getWorkspace()).body.data.tier).toBe('agency');
      expect((await admin(['tier', '--workspace', bootstrapped.workspaceId, '--tier', 'enterprise'])).status).toBe(0);

      const user = await admin(['tier', '--user', bootstrapped.email.toUpperCase(), '--tier', 'pro']);
      expect([user.status, user.stdout]).toEqual([0, expect.stringContaining(`<${bootstrapped.email}> is now on tier pro`)]);
      const unknown = await admin(['tier', '--user', 'nobody@example.com', '--tier', 'pro']);
      expect([unknown.status, failureLine(unknown)]).toEqual([1, 'admin tier: No user has the email nobody@example.com.']);
      const both = await admin(['tier', '--tier', 'pro']);
      expect([both.status, failureLine(both)]).toEqual([2, expect.stringContaining('give one of --workspace or --user')]);
      expect((await admin(['tier', '--user', bootstrapped.email, '--tier', 'gold'])).status).toBe(2);
    });

    it('an unknown workspace is a 404, in one line', async () => {
      const run = await admin(['suspend', '--workspace', 'wks_01HZZZZZZZZZZZZZZZZZZZZZZZ', '--reason', 'x']);
      expect(run.status).toBe(1);
      expect(failureLine(run)).toBe(
        'admin suspend: No workspace with id "wks_01HZZZZZZZZZZZZZZZZZZZZZZZ" exists. (404 RESOURCE_NOT_FOUND)',
      );
    });

    it('a malformed workspace id is a usage error that says what an id looks like', async () => {
      const run = await admin(['suspend', '--workspace', 'acme', '--reason', 'x']);
      expect(run.status).toBe(2);
      expect(failureLine(run)).toBe(
        'admin suspend: --workspace must be a workspace id: wks_ followed by 26 letters and digits (a ULID) (see: npm run admin -- suspend --help)',
      );
    });
  });

  it('prune deletes what has finished, and nothing twice', async () => {
    // Planted through the domain with a clock 31 days back: by now the session has ended,
    // the throttle windows have closed and the key, expired an hour later, is past its 30 days of retention.
    const clock = manualClock(new Date(Date.now() - 31 * 24 * 3600 * 1000));
    const past = depsOnTable(tableName, { clock });
    await login(past, { email: bootstrapped.email, password: bootstrapped.password, sourceIp: '203.0.113.5' });
    await expect(login(past, { email: bootstrapped.email, password: 'wrong password', sourceIp: '203.0.113.5' })).rejects.toThrow();
    await issueApiKey(past, bootstrapped.userId, bootstrapped.workspaceId, {
      name: 'old',
      expiresAt: new Date(clock.now().getTime() + 3600 * 1000).toISOString(),
    });
    const planted = await past.db.entities.throttleWindow.scan
      .where((attr, op) => op.lt(attr.ttl, Math.floor(clock.now().getTime() / 1000) + 3600))
      .go({ pages: 'all' });
    expect(planted.data).toHaveLength(2); // the failed login's email and address windows

    const first = await admin(['prune']);
    expect(first.status).toBe(0);
    // Other tests' throttle windows may close meanwhile (a 15-minute boundary), so the planted ones are looked for by key.
    expect(first.stdout).toMatch(
      /API keys\s+1\n\s+user tokens\s+0\n\s+invitations\s+0\n\s+pending invitations\s+0\n\s+account tokens\s+0\n\s+sessions\s+1\n\s+throttle windows\s+[2-9]/,
    );
    for (const window of planted.data) expect((await past.db.entities.throttleWindow.get(window).go({ consistent: true })).data).toBeNull();
    past.close();
    const second = await admin(['prune']);
    expect(second.stdout).toContain('Pruned 0 items');
  });

  it('gateway-keys reconcile gives a workspace that shares a key of its own once the budget has room, and a second run changes nothing', async () => {
    const spent = async () =>
      (
        await client.send(
          new GetCommand({ TableName: tableName, Key: { pk: 'COUNTER#gateway-keys', sk: 'COUNTER' }, ConsistentRead: true }),
        )
      ).Item?.value as number;
    const full = await spent();
    // Created while the budget was spent: it shares its tier's key.
    const planting = depsOnTable(tableName, { gatewayKeys: recordingGatewayKeys({ budget: full }) });
    const sharer = await createWorkspace(planting, bootstrapped.userId, { name: 'Sharer' });
    planting.close();
    const keyOf = async () =>
      (await client.send(new GetCommand({ TableName: tableName, Key: { pk: `WKS#${sharer.id}`, sk: 'WKS' }, ConsistentRead: true }))).Item
        ?.gatewayKey;
    expect(await keyOf()).toBeUndefined();

    const first = await admin(['gateway-keys', 'reconcile'], { GATEWAY_KEY_BUDGET: String(full + 1) });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/left behind deleted:\s+0\n.*plan:\s+0\n.*own:\s+1\n$/);
    expect(await keyOf()).toEqual({ id: expect.any(String), value: expect.stringMatching(/^\w{40}$/) });
    expect(await spent()).toBe(full + 1);

    const second = await admin(['gateway-keys', 'reconcile'], { GATEWAY_KEY_BUDGET: String(full + 1) });
    expect(second.stdout).toMatch(/own:\s+0\n$/);
  });

  const oauthModuleExists = existsSync(new URL('../../functions/core/oauth/clients.ts', import.meta.url));
  (oauthModuleExists ? it : it.skip)(
    'registers OAuth clients: a confidential one with a secret shown once, a public one without',
    async () => {
      const common = ['--owner-user', String(bootstrapped.userId), '--workspace', bootstrapped.workspaceId, '--scope', 'workspaces:read'];
      const [confidential, publicClient] = await Promise.all([
        admin(['oauth-client', 'create', '--name', 'Reports', ...common, '--grant', 'client_credentials']),
        admin([
          'oauth-client',
          'create',
          '--name',
          'SPA',
          ...common,
          '--grant',
          'authorization_code',
          '--redirect-uri',
          'https://spa.example.com/cb',
          '--public',
        ]),
      ]);
      expect(confidential.status).toBe(0);
      expect(printedValue(confidential, 'client id')).toBeDefined();
      expect(printedValue(confidential, 'client secret')).toMatch(/^\w{20,}/);
      expect(publicClient.status).toBe(0);
      expect(publicClient.stdout).not.toContain('client secret');

      const noRedirect = await admin(['oauth-client', 'create', '--name', 'SPA', ...common, '--grant', 'authorization_code', '--public']);
      expect(noRedirect.status).toBe(1);
      expect(failureLine(noRedirect)).toContain('(422 VALIDATION_FAILED)');
    },
  );

  it('bad arguments and a missing table end with a non-zero status and one readable line', async () => {
    const runs = await Promise.all([
      adminProcess(['create-user', '--name', 'No Email']),
      admin(['suspend', '--workspace', bootstrapped.workspaceId, '--until', 'tomorrow']),
      admin(['create-user', '--email', 'x@example.com', '--name', 'X', '--tier', 'gold']),
      admin(['create-user', '--email', 'x@example.com', '--name', 'X', '--password', `${'P'.repeat(72)}secretTail`]),
      admin(['frobnicate']),
      admin([]),
      adminProcess(['prune'], { TABLE_NAME: 'no-such-table' }),
    ]);
    expect(runs.map((r) => r.status)).toEqual([2, 2, 2, 2, 2, 2, 1]);
    expect(runs.map(failureLine)).toEqual([
      'admin create-user: --email is required (see: npm run admin -- create-user --help)',
      "admin suspend: Unknown option '--until' (see: npm run admin -- suspend --help)",
      'admin create-user: --tier must be one of free, starter, pro, business, agency, enterprise (see: npm run admin -- create-user --help)',
      expect.stringMatching(/^admin create-user: --password must be at most 72 bytes/),
      'admin: unknown command "frobnicate"; run "npm run admin -- --help" for the list',
      expect.stringContaining('npm run admin -- <command> --help'),
      `admin prune: table no-such-table does not exist at ${endpoint}: start the local runner (npm start) or deploy the stack first`,
    ]);
  });
});
