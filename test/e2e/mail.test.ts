import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLocalConfig } from '#lib/local/local-config';
import { type LocalRunner, startLocalRunner } from '#lib/local/runner';
import { sharedEndpoint, testTableName } from '../support/deps.ts';
import { readMailbox } from '../support/mailbox.ts';

/** The runner's mail sink: the folder it makes, the files its mailer writes, the line it prints for each. */
describe('the local runner writes mail into MAIL_DIR', () => {
  const runners: LocalRunner[] = [];
  const folders: string[] = [];
  const start = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const runner = await startLocalRunner(
      parseLocalConfig({ DYNAMODB_ENDPOINT: sharedEndpoint(), TABLE_NAME: testTableName(), PORT: '0', LOG_REQUESTS: '0', ...env }),
      {},
      (line) => lines.push(line),
    );
    runners.push(runner);
    return { runner, lines };
  };
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mail-e2e-'));
    folders.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('makes <DATA_DIR>/mail at start, writes each message there as .eml with the configured sender, and prints one line for it even with LOG_REQUESTS=0', async () => {
    const dataDir = folder();
    const { runner, lines } = await start({ DATA_DIR: dataDir, MAIL_FROM: 'Acme Support <support@acme.example>' });
    expect(runner.mailDir).toBe(join(dataDir, 'mail'));
    expect(readdirSync(runner.mailDir)).toEqual([]);

    await runner.mailer.send({ to: 'ana@example.com', subject: 'Réinitialiser', text: 'Ouvrez le lien : http://x/é\n', html: '<p>é</p>' });

    const [mail, ...others] = await readMailbox(runner.mailDir);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      to: 'ana@example.com',
      subject: 'Réinitialiser',
      text: 'Ouvrez le lien : http://x/é\r\n',
      html: '<p>é</p>',
    });
    expect(mail!.headers.from).toBe('Acme Support <support@acme.example>');
    expect(mail!.file.startsWith(runner.mailDir)).toBe(true);
    expect(lines).toEqual([`mail to ana@example.com: "Réinitialiser" ${mail!.file}`]);
  });

  it('uses MAIL_DIR when given, creating it', async () => {
    const dir = join(folder(), 'nested', 'mail');
    const { runner } = await start({ MAIL_DIR: dir });
    expect(runner.mailDir).toBe(dir);
    await runner.mailer.send({ to: 'bo@example.com', subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' });
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('gives DATA_DIR=memory a temporary folder of its own, removed at stop', async () => {
    const { runner } = await start({ DATA_DIR: 'memory' });
    const other = await start({ DATA_DIR: 'memory' });
    expect(runner.mailDir.startsWith(tmpdir())).toBe(true);
    expect(other.runner.mailDir).not.toBe(runner.mailDir);
    await runner.mailer.send({ to: 'cy@example.com', subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' });
    await runner.stop();
    runners.splice(runners.indexOf(runner), 1);
    expect(existsSync(runner.mailDir)).toBe(false);
  });
});
