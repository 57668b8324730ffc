import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { RecordedCall } from './call-recorder.ts';

/** The document-client command for each recorded command name. */
const commands: Record<string, new (input: never) => { input: object }> = {
  GetItemCommand: GetCommand,
  PutItemCommand: PutCommand,
  UpdateItemCommand: UpdateCommand,
  DeleteItemCommand: DeleteCommand,
  QueryCommand: QueryCommand,
  TransactGetItemsCommand: TransactGetCommand,
  TransactWriteItemsCommand: TransactWriteCommand,
};

/** The input sent to `table` instead: top-level, or each item of a transaction. */
function retargeted(input: Record<string, unknown>, table: string): Record<string, unknown> {
  const items = input.TransactItems as Array<Record<string, { TableName?: string }>> | undefined;
  return {
    ...input,
    ...(input.TableName ? { TableName: table } : {}),
    ...(items
      ? {
          TransactItems: items.map((item) =>
            Object.fromEntries(Object.entries(item).map(([kind, op]) => [kind, { ...op, TableName: table }])),
          ),
        }
      : {}),
  };
}

/**
 * Sends recorded calls again, to another table, in their order; calls that overlapped the
 * one before them are sent together again. Every call must succeed, as it did the first
 * time: a copy of the table taken before the recorded work satisfies their conditions.
 */
export async function replay(client: DynamoDBDocumentClient, calls: readonly RecordedCall[], table: string): Promise<void> {
  const send = (call: RecordedCall) => {
    const Command = commands[call.command];
    if (!Command) throw new Error(`cannot replay a ${call.command}`);
    // Each command's input type is its own; a recorded input is one of them by construction.
    return client.send(new Command(retargeted(call.input, table) as never) as GetCommand);
  };
  for (let i = 0; i < calls.length; ) {
    let end = i + 1;
    while (end < calls.length && calls[end]!.overlapsPrevious) end++;
    await Promise.all(calls.slice(i, end).map(send));
    i = end;
  }
}
