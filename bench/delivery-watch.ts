import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { arrivals } from './arrivals.ts';

/** Whether an UpdateItem input is a delivery record's write of `status` = success (attempt.ts `record`). */
export function setsDeliverySuccess(input: {
  Key?: { sk?: unknown };
  ExpressionAttributeNames?: object;
  ExpressionAttributeValues?: object;
}): boolean {
  return (
    String(input.Key?.sk).startsWith('DEL#') &&
    Object.values(input.ExpressionAttributeNames ?? {}).includes('status') &&
    Object.values(input.ExpressionAttributeValues ?? {}).includes('success')
  );
}

/**
 * Counts the writes that record a delivery as `success`, at the moment DynamoDB
 * acknowledged each: when the local runner's worker has finished with a delivery, seen
 * from its document client without polling the table.
 */
export function watchDeliverySuccesses() {
  const successes = arrivals();
  const attach = (client: DynamoDBDocumentClient) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        // Decided before sending: the document client marshals the input further down.
        const success = context.commandName === 'UpdateItemCommand' && setsDeliverySuccess(args.input as never);
        const result = await next(args);
        if (success) successes.add();
        return result;
      },
      { step: 'initialize', name: 'benchDeliverySuccessWatch' },
    );
    return client;
  };
  return { attach, successes };
}
