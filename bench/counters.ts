import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Hasher } from '#core/deps';

/**
 * Counts DynamoDB commands sent through a document client, by command name, marking
 * strongly consistent reads. The middleware sits in the `initialize` step, which runs
 * once per `send`, so SDK retries are not counted twice.
 */
export function countDynamoDbCalls() {
  const byCommand = new Map<string, number>();
  const attach = (client: DynamoDBDocumentClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const consistent = (args.input as { ConsistentRead?: boolean }).ConsistentRead === true;
        const name = `${context.commandName ?? 'unknown'}${consistent ? ' (consistent)' : ''}`;
        byCommand.set(name, (byCommand.get(name) ?? 0) + 1);
        return next(args);
      },
      { step: 'initialize', name: 'benchCallCounter' },
    );
    return client;
  };
  return {
    attach,
    total: () => [...byCommand.values()].reduce((a, b) => a + b, 0),
    snapshot: () => Object.fromEntries(byCommand),
    reset: () => byCommand.clear(),
  };
}

/** Wraps a hasher to count `compare` calls, i.e. bcrypt verifications. */
export function countBcryptCompares(inner: Hasher) {
  let compares = 0;
  const hasher: Hasher = {
    hash: (plain) => inner.hash(plain),
    compare: (plain, hash) => {
      compares++;
      return inner.compare(plain, hash);
    },
  };
  return { hasher, compares: () => compares, reset: () => (compares = 0) };
}
