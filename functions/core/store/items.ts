import type { EntityItem } from 'electrodb';
import type { Database } from './database.ts';

type Entities = Database['entities'];

/** One stored record of each entity, as ElectroDB reads and writes it: the item types every context names. */
export type AccountTokenItem = EntityItem<Entities['accountToken']>;
export type ApiKeyItem = EntityItem<Entities['apiKey']>;
export type CategoryItem = EntityItem<Entities['category']>;
export type InvitationItem = EntityItem<Entities['invitation']>;
export type MembershipItem = EntityItem<Entities['membership']>;
export type NamespaceItem = EntityItem<Entities['namespace']>;
export type OAuthClientItem = EntityItem<Entities['oauthClient']>;
export type OAuthTokenItem = EntityItem<Entities['oauthToken']>;
export type PixelSiteItem = EntityItem<Entities['pixelSite']>;
export type PostItem = EntityItem<Entities['post']>;
export type SeoIssueItem = EntityItem<Entities['seoIssue']>;
export type SeoReportItem = EntityItem<Entities['seoReport']>;
export type SessionItem = EntityItem<Entities['session']>;
export type IdempotencyRecordItem = EntityItem<Entities['idempotencyRecord']>;
export type UserItem = EntityItem<Entities['user']>;
export type UserTokenItem = EntityItem<Entities['userToken']>;
export type WebhookDeliveryItem = EntityItem<Entities['webhookDelivery']>;
export type WebhookEndpointItem = EntityItem<Entities['webhookEndpoint']>;
export type WebhookEventItem = EntityItem<Entities['webhookEvent']>;
export type WorkspaceItem = EntityItem<Entities['workspace']>;
