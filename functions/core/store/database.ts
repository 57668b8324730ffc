import { Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { apiKeyEntity } from './entities/api-key.ts';
import { counterEntity } from './entities/counter.ts';
import { membershipEntity } from './entities/membership.ts';
import { userEntity } from './entities/user.ts';
import { workspaceEntity } from './entities/workspace.ts';
import { workspaceSlugEntity } from './entities/workspace-slug.ts';

/** The entities composed into one ElectroDB service over the single table. */
export function createDatabase(client: DynamoDBDocumentClient, table: string) {
  return new Service(
    {
      apiKey: apiKeyEntity,
      counter: counterEntity,
      membership: membershipEntity,
      user: userEntity,
      workspace: workspaceEntity,
      workspaceSlug: workspaceSlugEntity,
    },
    { client, table },
  );
}

export type Database = ReturnType<typeof createDatabase>;
