import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  type GetCommandInput,
  QueryCommand,
  TransactGetCommand,
  type TransactGetCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { OwnedDeps } from '#core/adapters/create-deps';
import { parseApiKey } from '#core/api-keys/api-key-format';
import { meterRequest } from '#core/metering/usage-meter';
import { defaultNamespaceId } from '#core/namespaces/ids';
import type { BootstrapResult } from '#core/operations/bootstrap';

export interface BenchServer {
  url: string;
  stop(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 at a free port; `url` is its address plus `path`. */
export async function listen(handler: RequestListener, path: string): Promise<BenchServer> {
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

export interface WarmWorkspaceGetReads {
  /** The authorizer's one read: API key, workspace, membership and namespace, transactional (so strongly consistent). */
  credential: TransactGetCommandInput;
  /** The authorizer's one write: the usage meter's count of the request (rate limit and api_calls). */
  meter: () => Promise<unknown>;
  /** The handler's one read: the home workspace (the role comes from the authorizer's membership). */
  workspace: GetCommandInput;
}

/**
 * The DynamoDB calls of a warm authenticated GET /workspaces/{id} with an API key, built
 * by the runtime's own entities and transaction (`params()`), so the keys are exactly the
 * ones it reads.
 */
export async function dbReadsOfWarmWorkspaceGet(deps: OwnedDeps, bootstrap: BootstrapResult): Promise<WarmWorkspaceGetReads> {
  const { client, db, tableName: table } = deps;
  const prefix = parseApiKey(bootstrap.apiKey)!.prefix;
  const { Items: keys = [] } = await client.send(new QueryCommand(db.entities.apiKey.query.byPrefix({ prefix }).params({ table })));
  const key = keys.find((k) => k.workspaceId === bootstrap.workspaceId);
  if (!key) throw new Error(`the bootstrap key (${prefix}…) is not in table ${table}`);
  const { workspaceId, userId } = bootstrap;
  const credential = db.transaction
    .get(({ apiKey, workspace, membership, namespace }) => [
      apiKey.get({ workspaceId, id: key.id as string }).commit(),
      workspace.get({ id: workspaceId }).commit(),
      membership.get({ workspaceId, userId }).commit(),
      namespace.get({ id: defaultNamespaceId(workspaceId) }).commit(),
    ])
    .params() as TransactGetCommandInput; // ElectroDB types each Get loosely; it is a DocumentClient input
  const meterInput = {
    workspaceId,
    userId,
    environment: key.environment,
    tier: key.rateLimitTier,
    credential: { type: 'api_key', id: key.id as string },
    apiCallsLimit: null,
  } as const;
  return {
    credential,
    meter: () => meterRequest(deps, meterInput),
    workspace: db.entities.workspace.get({ id: workspaceId }).params({ table }),
  };
}

/**
 * The DB-bound ceiling: a bare server making only the warm path's DynamoDB calls, so that how
 * much slower the runner is measures its own overhead.
 */
export function startDbCeilingServer(client: DynamoDBDocumentClient, reads: WarmWorkspaceGetReads): Promise<BenchServer> {
  return listen(async (_req, res) => {
    try {
      const { Responses: found = [] } = await client.send(new TransactGetCommand(reads.credential));
      const counted = await reads.meter();
      const { Item: workspace } = await client.send(new GetCommand(reads.workspace));
      const status = found.length === 4 && found.slice(0, 3).every((r) => r.Item) && counted && workspace ? 200 : 404;
      const body = JSON.stringify({ data: workspace ?? null });
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  }, '/');
}
