import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import bcrypt from 'bcryptjs';
import { recordingGatewayKeys } from '#core/adapters/gateway-keys/recording-gateway-keys';
import { sharedKeysOf } from '#core/adapters/gateway-keys/shared-keys';
import { systemClock } from '#core/platform/clock';
import type { GatewaySettings, StoreSettings } from '#core/platform/config';
import type { Deps, Hasher } from '#core/ports/deps';
import type { GatewayKeys } from '#core/ports/gateway-keys';
import type { EventRelay } from '#core/ports/webhook-delivery';
import { createDocumentClient } from '#core/store/client';
import { createDatabase } from '#core/store/database';
import type { PortName } from './function-definition.ts';

/** The spec's cost factor for key hashes. */
const bcryptCost = 10;

export const bcryptHasher: Hasher = {
  hash: (plain) => bcrypt.hash(plain, bcryptCost),
  compare: (plain, hash) => bcrypt.compare(plain, hash),
};

/** What an entry point may put in place of a default port (the tests' clock, the bench's counting hasher). */
export type DepsOverrides = Partial<Omit<Deps, 'db'>> & {
  /** Wraps the DynamoDB client, e.g. to count calls in the bench. */
  documentClient?: (client: DynamoDBDocumentClient) => DynamoDBDocumentClient;
};

/** Deps as a process owns them: with the store's client, to set up the table and to close. */
export interface OwnedDeps extends Deps {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Releases the store's connections; a Lambda never needs to. */
  close(): void;
}

/** In AWS the table's stream relays events; a process without a relay of its own leaves them to the sweeper. */
const streamRelay: EventRelay = { relay: async () => {} };

const unwired = (port: string) => () => {
  throw new Error(`No ${port} is configured in this process.`);
};

/**
 * The ports a process has not been given. Using one is a fault of ours, never something to
 * skip silently: a function that declares no mailer sends no mail, in AWS and locally.
 */
export const unwiredPorts: Pick<Deps, Exclude<PortName, 'gatewayKeys'>> = {
  mailer: { send: async () => unwired('mailer')() },
  deliveryQueue: { send: async () => unwired('delivery queue')() },
  retryScheduler: { schedule: async () => unwired('retry scheduler')() },
  webhookSecrets: { seal: unwired('webhook secret keys'), open: unwired('webhook secret keys') },
  routeInvoker: { invoke: async () => unwired('route invoker')() },
};

/**
 * The in-memory stand-in, which still knows the stack's shared keys (all the authorizer
 * needs). API Gateway's own keys come with the gatewayKeys port's adapter, so that only the
 * functions that manage keys bundle its client; a process told the plans without it fails here.
 */
function defaultGatewayKeys(settings: Partial<GatewaySettings>): GatewayKeys {
  if (settings.GATEWAY_USAGE_PLANS) {
    throw new Error(
      'GATEWAY_USAGE_PLANS is set, but this process builds no API Gateway keys: its definition declares no gatewayKeys port.',
    );
  }
  return recordingGatewayKeys({ budget: settings.GATEWAY_KEY_BUDGET, shared: sharedKeysOf(settings) });
}

/**
 * The one factory of dependencies: the Lambda runtime, the local runner, the admin CLI,
 * the tests and the bench all build theirs here, from the store settings of the config.
 */
export function createDeps(settings: StoreSettings & Partial<GatewaySettings>, overrides: DepsOverrides = {}): OwnedDeps {
  const base = createDocumentClient(settings);
  const client = overrides.documentClient?.(base) ?? base;
  return {
    db: createDatabase(client, settings.TABLE_NAME),
    clock: overrides.clock ?? systemClock,
    hasher: overrides.hasher ?? bcryptHasher,
    mailer: overrides.mailer ?? unwiredPorts.mailer,
    gatewayKeys: overrides.gatewayKeys ?? defaultGatewayKeys(settings),
    eventRelay: overrides.eventRelay ?? streamRelay,
    deliveryQueue: overrides.deliveryQueue ?? unwiredPorts.deliveryQueue,
    retryScheduler: overrides.retryScheduler ?? unwiredPorts.retryScheduler,
    webhookSecrets: overrides.webhookSecrets ?? unwiredPorts.webhookSecrets,
    routeInvoker: overrides.routeInvoker ?? unwiredPorts.routeInvoker,
    client,
    tableName: settings.TABLE_NAME,
    close: () => client.destroy(),
  };
}
