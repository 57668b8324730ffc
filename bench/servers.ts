import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand, type DynamoDBDocumentClient, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { parseApiKey } from '#core/auth/api-key-format';
import type { BootstrapResult } from '#core/domain/bootstrap';
import { createDatabase } from '#core/store/database';

export interface BenchServer {
  url: string;
  stop(): Promise<void>;
}

async function listen(handler: RequestListener, path: string): Promise<BenchServer> {
  const server = createServer(handler);
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** What node:http alone can do on this machine: the ceiling of any server here. */
export function startBaselineServer(): Promise<BenchServer> {
  const body = JSON.stringify({ ok: true });
  return listen((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  }, '/');
}

/**
 * The three GetItems of a warm authenticated GET /workspaces/{id}, with the runtime's own
 * keys: each entity's `params()` gives the exact Key it reads.
 */
export async function dbReadsOfWarmWorkspaceGet(client: DynamoDBDocumentClient, table: string, bootstrap: BootstrapResult) {
  const { apiKey: apiKeyEntity, membership: membershipEntity, workspace: workspaceEntity } = createDatabase(client, table).entities;
  const prefix = parseApiKey(bootstrap.apiKey)!.prefix;
  const { Items: keys = [] } = await client.send(new QueryCommand(apiKeyEntity.query.byPrefix({ prefix }).params({ table })));
  const key = keys.find((k) => k.workspaceId === bootstrap.workspaceId);
  if (!key) throw new Error(`the bootstrap key (${prefix}…) is not in table ${table}`);
  const workspaceId = bootstrap.workspaceId;
  return {
    apiKey: { ...apiKeyEntity.get({ workspaceId, id: key.id as string }).params({ table }), ConsistentRead: true },
    membership: membershipEntity.get({ workspaceId, userId: bootstrap.userId }).params({ table }),
    workspace: workspaceEntity.get({ id: workspaceId }).params({ table }),
  } as Record<'apiKey' | 'membership' | 'workspace', GetCommandInput>;
}

/**
 * The DB-bound ceiling: a bare server doing, per request, only the DynamoDB reads of the
 * real warm path (consistent key read, then membership and workspace in parallel), on the
 * raw document client. The runner can only be slower; how much slower is its overhead.
 */
export function startDbCeilingServer(
  client: DynamoDBDocumentClient,
  reads: Awaited<ReturnType<typeof dbReadsOfWarmWorkspaceGet>>,
): Promise<BenchServer> {
  return listen(async (_req, res) => {
    try {
      const { Item: key } = await client.send(new GetCommand(reads.apiKey));
      const [{ Item: member }, { Item: workspace }] = await Promise.all([
        client.send(new GetCommand(reads.membership)),
        client.send(new GetCommand(reads.workspace)),
      ]);
      const status = key && member && workspace ? 200 : 404;
      const body = JSON.stringify({ data: workspace ?? null });
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  }, '/');
}
