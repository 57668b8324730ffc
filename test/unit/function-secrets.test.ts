import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { defineFunction } from '#core/adapters/function-definition';
import { loadSecrets, withSecrets } from '#core/adapters/secrets/function-secrets';

const arn = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${name}-AbCdEf`;
const values: Record<string, string> = {
  [arn('cursor')]: 'c'.repeat(64),
  [arn('seal-2')]: '2'.repeat(64),
  [arn('seal-1')]: '1'.repeat(64),
};
const secretsManager = mockClient(SecretsManagerClient);
afterEach(() => secretsManager.reset());
const lister = defineFunction({ name: 'lister', ports: ['webhookSecrets'], secrets: ['cursorSigningKey'] });

describe('reading a function’s secrets by ARN', () => {
  beforeEach(() => secretsManager.on(GetSecretValueCommand).callsFake(({ SecretId }) => ({ SecretString: values[SecretId] })));
  const client = () => new SecretsManagerClient({ region: 'eu-west-1' });

  it('puts each declared key’s value under the variable its configuration reads, the webhook keys in the order given', async () => {
    const env: NodeJS.ProcessEnv = { CURSOR_SIGNING_KEY_ARN: arn('cursor'), WEBHOOK_SECRET_KEY_ARNS: `${arn('seal-2')},${arn('seal-1')}` };
    await loadSecrets(lister, env, client);
    expect(env).toMatchObject({ CURSOR_SIGNING_KEY: 'c'.repeat(64), WEBHOOK_SECRET_KEYS: `${'2'.repeat(64)},${'1'.repeat(64)}` });
    expect(
      secretsManager
        .commandCalls(GetSecretValueCommand)
        .map((call) => call.args[0].input.SecretId)
        .sort(),
    ).toEqual([arn('cursor'), arn('seal-1'), arn('seal-2')].sort());
  });

  it('reads nothing for a function that declares no key', async () => {
    const env: NodeJS.ProcessEnv = { CURSOR_SIGNING_KEY_ARN: arn('cursor') };
    await loadSecrets(defineFunction({ name: 'plain', ports: [] }), env, client);
    expect(env.CURSOR_SIGNING_KEY).toBeUndefined();
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('fails, naming the variable, when the stack did not give a declared key’s ARN', async () => {
    await expect(loadSecrets(lister, { CURSOR_SIGNING_KEY_ARN: arn('cursor') }, client)).rejects.toThrow(
      /WEBHOOK_SECRET_KEY_ARNS is not set: the stack gives it to the functions that declare webhookSecretKeys/,
    );
  });

  it('refuses an ARN variable that holds no ARN', async () => {
    await expect(loadSecrets(lister, { CURSOR_SIGNING_KEY_ARN: 'cursor', WEBHOOK_SECRET_KEY_ARNS: arn('seal-1') }, client)).rejects.toThrow(
      /CURSOR_SIGNING_KEY_ARN must be comma-separated ARNs/,
    );
  });

  it('fails when a secret holds no text', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({});
    await expect(
      loadSecrets(lister, { CURSOR_SIGNING_KEY_ARN: arn('cursor'), WEBHOOK_SECRET_KEY_ARNS: arn('seal-1') }, client),
    ).rejects.toThrow(/holds no text/);
  });
});

describe('a handler with secrets', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('reads them once, at init, before its first event sees the configuration, and a failed read is tried again', async () => {
    process.env.AWS_REGION = 'eu-west-1';
    process.env.PIXEL_HASH_KEY_ARN = arn('pixel');
    secretsManager
      .on(GetSecretValueCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ SecretString: 'p'.repeat(64) });
    const handler = withSecrets(defineFunction({ name: 'pixel', ports: [], secrets: ['pixelHashKey'] }), async (n: number) => ({
      n,
      key: process.env.PIXEL_HASH_KEY,
    }));
    await expect(handler(1)).rejects.toThrow('throttled');
    await expect(handler(2)).resolves.toEqual({ n: 2, key: 'p'.repeat(64) });
    await expect(handler(3)).resolves.toEqual({ n: 3, key: 'p'.repeat(64) });
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });
});
