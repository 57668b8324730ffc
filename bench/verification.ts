import { bcryptHasher, createDeps } from '#core/adapters/create-deps';
import { issueApiKey } from '#core/api-keys/api-keys';
import { authenticate } from '#core/credentials/authenticate';
import type { BootstrapResult } from '#core/operations/bootstrap';
import type { Deps } from '#core/ports/deps';
import { type Counters, countBcryptCompares, countDynamoDbCalls, countedSeries } from './counters.ts';

/**
 * API key verification as the authorizer does it: new keys once cold, then warm, then guessing;
 * the keys are new, so no earlier phase can have verified them.
 */
export async function measureKeyVerification(
  endpoint: string,
  table: string,
  bootstrap: BootstrapResult,
  n: { keys: number; warmRepeats: number; wrongSecrets?: number },
) {
  const counters = { calls: countDynamoDbCalls(), bcrypt: countBcryptCompares(bcryptHasher) };
  const deps = createDeps(
    { AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: table },
    { documentClient: counters.calls.attach, hasher: counters.bcrypt.hasher },
  );
  try {
    const keys: string[] = [];
    for (let i = 0; i < n.keys; i++) {
      keys.push((await issueApiKey(deps, bootstrap.userId, bootstrap.workspaceId, { name: `bench ${i}`, scopes: ['*'] })).key);
    }
    const verify = async (key: string) => {
      const principal = await authenticate(deps, { authorization: `Bearer ${key}`, method: 'GET', sourceIp: '127.0.0.1' });
      if (principal.workspaceId !== bootstrap.workspaceId) throw new Error(`a key verified into workspace ${principal.workspaceId}`);
    };
    const cold = await countedSeries(counters, keys.length, (i) => verify(keys[i]!));
    const warm = await countedSeries(counters, keys.length * n.warmRepeats, (i) => verify(keys[i % keys.length]!));
    const neighbour = (await issueApiKey(deps, bootstrap.userId, bootstrap.workspaceId, { name: 'bench neighbour', scopes: ['*'] })).key;
    const guessing = await measureGuessing(deps, counters.bcrypt, keys[0]!, neighbour, n.wrongSecrets ?? 50);
    return { cold, warm, guessing };
  } finally {
    deps.close();
  }
}

/**
 * Wrong secrets for a known prefix from one address: what they cost in bcrypt, and whether the
 * known key and a neighbour's key are still served from that address.
 */
async function measureGuessing(deps: Deps, bcrypt: Counters['bcrypt'], knownKey: string, neighbourKey: string, attempts: number) {
  const sourceIp = '192.0.2.66';
  const answered: Record<string, number> = {};
  const statusOf = (key: string) =>
    authenticate(deps, { authorization: `Bearer ${key}`, method: 'GET', sourceIp }).then(
      () => 200,
      (error: { status?: number }) => error.status ?? 500,
    );
  bcrypt.reset();
  const started = performance.now();
  for (let i = 0; i < attempts; i++) {
    const status = await statusOf(knownKey.slice(0, 16) + String(i).padStart(24, 'x'));
    answered[status] = (answered[status] ?? 0) + 1;
  }
  const ms = performance.now() - started;
  const bcryptCompares = bcrypt.compares();
  return {
    attempts,
    answered,
    bcryptCompares,
    ms,
    knownKeyStatus: await statusOf(knownKey),
    neighbourKeyStatus: await statusOf(neighbourKey),
  };
}

export type GuessingFigures = Awaited<ReturnType<typeof measureGuessing>>;
