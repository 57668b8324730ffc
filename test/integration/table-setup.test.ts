import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { createDocumentClient } from '#core/store/client';
import { createTableInput } from '#core/store/table';
import { ensureTable } from '#lib/local/table-setup';
import { testTableName } from '../support/deps.ts';

const client = createDocumentClient({ AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT });
const indexesOf = async (name: string) =>
  ((await client.send(new DescribeTableCommand({ TableName: name }))).Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort();

describe('the local table', () => {
  it('is created from the table design, then left as it is', async () => {
    const name = testTableName();
    expect(await ensureTable(client, name)).toBe('created');
    expect(await ensureTable(client, name)).toBe('existing');
    expect(await indexesOf(name)).toEqual((createTableInput(name).GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort());
  });

  it('gains the indexes the design added since a kept table was made', async () => {
    const name = testTableName();
    const full = createTableInput(name);
    const kept = full.GlobalSecondaryIndexes!.slice(0, 1);
    const keyNames = new Set([...full.KeySchema!, ...kept.flatMap((i) => i.KeySchema!)].map((k) => k.AttributeName));
    await client.send(
      new CreateTableCommand({
        ...full,
        GlobalSecondaryIndexes: kept,
        AttributeDefinitions: full.AttributeDefinitions!.filter((a) => keyNames.has(a.AttributeName)),
      }),
    );
    expect(await ensureTable(client, name)).toBe('updated');
    expect(await indexesOf(name)).toEqual(full.GlobalSecondaryIndexes!.map((i) => i.IndexName).sort());
  });
});
