import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface Read {
  command: string;
  /** Items DynamoDB read for the call: a Query's ScannedCount, a BatchGet's items, a GetItem's one. */
  items: number;
}

/** Records every call a document client sends from now on, with the items each one read. */
export function watchReads(client: DynamoDBDocumentClient) {
  const reads: Read[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as { ScannedCount?: number; Responses?: Record<string, unknown[]>; Item?: unknown };
      const batched = output.Responses && !Array.isArray(output.Responses) ? Object.values(output.Responses).flat().length : 0;
      reads.push({ command: String(context.commandName), items: output.ScannedCount ?? (batched || (output.Item ? 1 : 0)) });
      return result;
    },
    { step: 'initialize', name: 'watchReads' },
  );
  return {
    /** The calls since the last `clear`. */
    reads: () => [...reads],
    itemsRead: () => reads.reduce((n, r) => n + r.items, 0),
    clear: () => void reads.splice(0),
  };
}
