import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import bcrypt from 'bcryptjs';
import { recordingGatewayKeys } from '#core/adapters/gateway-keys/recording-gateway-keys';
import { sharedKeysOf } from '#core/adapters/gateway-keys/shared-keys';
import { systemClock } from '#core/platform/clock';
import type { GatewaySettings, StoreSettings } from '#core/platform/config';
import type { Deps, Hasher } from '#core/ports/deps';
import type { GatewayKeys } from '#core/ports/gateway-keys';
import type { Mailer } from '#core/ports/mailer';
import type { EventRelay } from '#core/ports/webhook-delivery';
import type { WebhookSecretBox } from '#core/ports/webhook-secrets';
import { createDocumentClient } from '#core/store/client';
import { createDatabase } from '#core/store/database';

/** The spec's cost factor for key hashes. */
export const bcryptCost = 10;

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

/** Until a process is given a mailer, sending is a fault of ours, not something to skip silently. */
const noMailer: Mailer = {
  send: async () => {
    throw new Error('No mailer is configured in this process.');
  },
};

/** In AWS the table's stream relays events; a process without a relay of its own leaves them to the sweeper. */
const streamRelay: EventRelay = { relay: async () => {} };

/** Until a process is given the queue and scheduler (core/webhooks/ adapters or the local runner's), waking a delivery is a fault. */
const unwired = (port: string) => async () => {
  throw new Error(`No ${port} is configured in this process.`);
};

/** Until a process is given the keys of webhook secrets (core/adapters/webhooks/secrets-runtime.ts, the local runner's), sealing or opening one is a fault. */
const noSecretBox: WebhookSecretBox = {
  seal: () => {
    throw new Error('No webhook secret keys are configured in this process.');
  },
  open: () => {
    throw new Error('No webhook secret keys are configured in this process.');
  },
};

/**
 * The in-memory stand-in, which still knows the stack's shared keys (all the authorizer
 * needs). API Gateway's own keys come with core/adapters/gateway-runtime.ts, so that only the
 * functions that manage keys bundle its client; a process told the plans without it fails here.
 */
function defaultGatewayKeys(settings: Partial<GatewaySettings>): GatewayKeys {
  if (settings.GATEWAY_USAGE_PLANS) {
    throw new Error(
      'GATEWAY_USAGE_PLANS is set, but this process builds no API Gateway keys: wrap its deps with withGatewayKeys (gateway-runtime.ts).',
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
    mailer: overrides.mailer ?? noMailer,
    gatewayKeys: overrides.gatewayKeys ?? defaultGatewayKeys(settings),
    eventRelay: overrides.eventRelay ?? streamRelay,
    deliveryQueue: overrides.deliveryQueue ?? { send: unwired('delivery queue') },
    retryScheduler: overrides.retryScheduler ?? { schedule: unwired('retry scheduler') },
    webhookSecrets: overrides.webhookSecrets ?? noSecretBox,
    client,
    tableName: settings.TABLE_NAME,
    close: () => client.destroy(),
  };
}
