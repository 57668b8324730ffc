import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Entity, Service } from 'electrodb';
import { accountTokenSchema } from '#core/store/entities/account-token';
import { apiKeySchema } from '#core/store/entities/api-key';
import { categorySchema } from '#core/store/entities/category';
import { concurrencyLeaseSchema } from '#core/store/entities/concurrency-lease';
import { contentSlugSchema } from '#core/store/entities/content-slug';
import { counterSchema } from '#core/store/entities/counter';
import { idempotencyRecordSchema } from '#core/store/entities/idempotency-record';
import { invitationSchema } from '#core/store/entities/invitation';
import { maintenanceSchema } from '#core/store/entities/maintenance';
import { membershipSchema } from '#core/store/entities/membership';
import { namespaceSchema } from '#core/store/entities/namespace';
import { oauthClientSchema } from '#core/store/entities/oauth-client';
import { oauthCodeSchema } from '#core/store/entities/oauth-code';
import { oauthConsentSchema } from '#core/store/entities/oauth-consent';
import { oauthFamilySchema } from '#core/store/entities/oauth-family';
import { oauthRefreshTokenSchema } from '#core/store/entities/oauth-refresh-token';
import { oauthTokenSchema } from '#core/store/entities/oauth-token';
import { pendingInvitationSchema } from '#core/store/entities/pending-invitation';
import { pixelEventSchema } from '#core/store/entities/pixel-event';
import { pixelSiteSchema } from '#core/store/entities/pixel-site';
import { postSchema } from '#core/store/entities/post';
import { postCategorySchema } from '#core/store/entities/post-category';
import { postWordSchema } from '#core/store/entities/post-word';
import { seoIssueSchema } from '#core/store/entities/seo-issue';
import { seoReportSchema } from '#core/store/entities/seo-report';
import { sessionSchema } from '#core/store/entities/session';
import { throttleWindowSchema } from '#core/store/entities/throttle-window';
import { usageCounterSchema } from '#core/store/entities/usage-counter';
import { userSchema } from '#core/store/entities/user';
import { userEmailSchema } from '#core/store/entities/user-email';
import { userTokenSchema } from '#core/store/entities/user-token';
import { webhookDeliverySchema } from '#core/store/entities/webhook-delivery';
import { webhookDeliveryCountSchema } from '#core/store/entities/webhook-delivery-count';
import { webhookEndpointSchema } from '#core/store/entities/webhook-endpoint';
import { webhookEventSchema } from '#core/store/entities/webhook-event';
import { workspaceSchema } from '#core/store/entities/workspace';
import { workspaceSlugSchema } from '#core/store/entities/workspace-slug';

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
      category: new Entity(categorySchema, config),
      contentSlug: new Entity(contentSlugSchema, config),
      concurrencyLease: new Entity(concurrencyLeaseSchema, config),
      counter: new Entity(counterSchema, config),
      idempotencyRecord: new Entity(idempotencyRecordSchema, config),
      invitation: new Entity(invitationSchema, config),
      maintenance: new Entity(maintenanceSchema, config),
      membership: new Entity(membershipSchema, config),
      namespace: new Entity(namespaceSchema, config),
      oauthClient: new Entity(oauthClientSchema, config),
      oauthCode: new Entity(oauthCodeSchema, config),
      oauthConsent: new Entity(oauthConsentSchema, config),
      oauthFamily: new Entity(oauthFamilySchema, config),
      oauthRefreshToken: new Entity(oauthRefreshTokenSchema, config),
      oauthToken: new Entity(oauthTokenSchema, config),
      pendingInvitation: new Entity(pendingInvitationSchema, config),
      pixelEvent: new Entity(pixelEventSchema, config),
      pixelSite: new Entity(pixelSiteSchema, config),
      post: new Entity(postSchema, config),
      postCategory: new Entity(postCategorySchema, config),
      postWord: new Entity(postWordSchema, config),
      seoIssue: new Entity(seoIssueSchema, config),
      seoReport: new Entity(seoReportSchema, config),
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

// Kept in a module of its own, which a bundle may import without ElectroDB.
export { hotPath } from './hot-path.ts';
