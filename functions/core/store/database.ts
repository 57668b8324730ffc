import { Entity, Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { accountTokenSchema } from './entities/account-token.ts';
import { apiKeySchema } from './entities/api-key.ts';
import { counterSchema } from './entities/counter.ts';
import { idempotencyRecordSchema } from './entities/idempotency-record.ts';
import { invitationSchema } from './entities/invitation.ts';
import { membershipSchema } from './entities/membership.ts';
import { namespaceSchema } from './entities/namespace.ts';
import { oauthClientSchema } from './entities/oauth-client.ts';
import { oauthCodeSchema } from './entities/oauth-code.ts';
import { oauthConsentSchema } from './entities/oauth-consent.ts';
import { oauthFamilySchema } from './entities/oauth-family.ts';
import { oauthRefreshTokenSchema } from './entities/oauth-refresh-token.ts';
import { oauthTokenSchema } from './entities/oauth-token.ts';
import { pendingInvitationSchema } from './entities/pending-invitation.ts';
import { sessionSchema } from './entities/session.ts';
import { throttleWindowSchema } from './entities/throttle-window.ts';
import { usageCounterSchema } from './entities/usage-counter.ts';
import { userSchema } from './entities/user.ts';
import { userEmailSchema } from './entities/user-email.ts';
import { userTokenSchema } from './entities/user-token.ts';
import { webhookDeliverySchema } from './entities/webhook-delivery.ts';
import { webhookDeliveryCountSchema } from './entities/webhook-delivery-count.ts';
import { webhookEndpointSchema } from './entities/webhook-endpoint.ts';
import { webhookEventSchema } from './entities/webhook-event.ts';
import { workspaceSchema } from './entities/workspace.ts';
import { workspaceSlugSchema } from './entities/workspace-slug.ts';

/**
 * The entities composed into one ElectroDB service over the single table. Entities are
 * made here, per database, because a Service binds its entities to its client and table:
 * shared entity instances would let the last database made take every other's traffic.
 */
export function createDatabase(client: DynamoDBDocumentClient, table: string) {
  const config = { client, table };
  const service = new Service(
    {
      accountToken: new Entity(accountTokenSchema, config),
      apiKey: new Entity(apiKeySchema, config),
      counter: new Entity(counterSchema, config),
      idempotencyRecord: new Entity(idempotencyRecordSchema, config),
      invitation: new Entity(invitationSchema, config),
      membership: new Entity(membershipSchema, config),
      namespace: new Entity(namespaceSchema, config),
      oauthClient: new Entity(oauthClientSchema, config),
      oauthCode: new Entity(oauthCodeSchema, config),
      oauthConsent: new Entity(oauthConsentSchema, config),
      oauthFamily: new Entity(oauthFamilySchema, config),
      oauthRefreshToken: new Entity(oauthRefreshTokenSchema, config),
      oauthToken: new Entity(oauthTokenSchema, config),
      pendingInvitation: new Entity(pendingInvitationSchema, config),
      session: new Entity(sessionSchema, config),
      throttleWindow: new Entity(throttleWindowSchema, config),
      usageCounter: new Entity(usageCounterSchema, config),
      user: new Entity(userSchema, config),
      userEmail: new Entity(userEmailSchema, config),
      userToken: new Entity(userTokenSchema, config),
      webhookDelivery: new Entity(webhookDeliverySchema, config),
      webhookDeliveryCount: new Entity(webhookDeliveryCountSchema, config),
      webhookEndpoint: new Entity(webhookEndpointSchema, config),
      webhookEvent: new Entity(webhookEventSchema, config),
      workspace: new Entity(workspaceSchema, config),
      workspaceSlug: new Entity(workspaceSlugSchema, config),
    },
    config,
  );
  /** The table itself, for the few writes no entity can express (the usage meter's per-credential windows). */
  return Object.assign(service, { table: { client, name: table } });
}

export type Database = ReturnType<typeof createDatabase>;

/**
 * Options for reads on every request's path: ElectroDB otherwise builds an error with a
 * stack trace before each call, in case it fails (about a tenth of its cost per call).
 */
export const hotPath = { originalErr: true } as const;
