import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** One DynamoDB call as sent: the command's name (e.g. `GetItemCommand`) and its document-client input. */
export interface RecordedCall {
  command: string;
  input: Record<string, unknown>;
  /** Sent while an earlier call of the same work was still under way (e.g. under Promise.all). */
  overlapsPrevious: boolean;
}

interface Recording {
  /**
   * Undefined once the work is done. Resources made inside the work (a keep-alive socket of
   * the SDK's pool) keep its async context, and with it this store, for as long as they
   * live: by then it must hold nothing.
   */
  calls?: RecordedCall[];
  inFlight: number;
}

/**
 * Records the DynamoDB calls that a piece of work sends through a document client, with a
 * copy of each input, told apart from other work running at the same time by async
 * context: what a delivery attempt costs, by kind, and what replay.ts sends again.
 */
export function recordDynamoDbCalls() {
  const recording = new AsyncLocalStorage<Recording>();
  const attach = (client: DynamoDBDocumentClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const current = recording.getStore();
        if (!current?.calls) return next(args);
        current.calls.push({
          command: context.commandName ?? 'unknown',
          input: structuredClone(args.input) as Record<string, unknown>,
          overlapsPrevious: current.inFlight > 0,
        });
        current.inFlight++;
        try {
          return await next(args);
        } finally {
          current.inFlight--;
        }
      },
      { step: 'initialize', name: 'benchCallRecorder' },
    );
    return client;
  };
  return {
    attach,
    /** Runs `work`, answering the calls it made. */
    async during(work: () => Promise<unknown>): Promise<RecordedCall[]> {
      const current: Recording = { calls: [], inFlight: 0 };
      await recording.run(current, work);
      const calls = current.calls!;
      current.calls = undefined;
      return calls;
    },
  };
}

/**
 * Records every DynamoDB call sent through a document client while capturing, whatever
 * work sent it: for calls made by a server in this process on behalf of an HTTP client,
 * where no async context leads from the client's request to the server's handler.
 */
export function captureDynamoDbCalls() {
  let calls: RecordedCall[] | undefined;
  const attach = (client: DynamoDBDocumentClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        calls?.push({
          command: context.commandName ?? 'unknown',
          input: structuredClone(args.input) as Record<string, unknown>,
          overlapsPrevious: false,
        });
        return next(args);
      },
      { step: 'initialize', name: 'benchCallCapture' },
    );
    return client;
  };
  return {
    attach,
    /** Runs `work`, answering every call sent meanwhile, in the order sent. */
    async during(work: () => Promise<unknown>): Promise<RecordedCall[]> {
      if (calls) throw new Error('already capturing');
      calls = [];
      try {
        await work();
        return calls;
      } finally {
        calls = undefined;
      }
    },
  };
}
