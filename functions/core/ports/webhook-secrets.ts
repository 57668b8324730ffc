/**
 * Seals and opens webhook endpoints' signing secrets under keys kept outside the table
 * (WEBHOOK_SECRET_KEYS); the sealing itself is webhooks/secret-box.ts.
 */
export type SecretField = 'secret' | 'previousSecret';

export interface WebhookSecretBox {
  seal(secret: string, endpointId: string, field: SecretField): string;
  /** The secret a sealed value holds; throws UnreadableSecret if no listed key opens it for this endpoint and field. */
  open(sealed: string | undefined, endpointId: string, field: SecretField): string;
}

/** A stored secret that cannot be opened: its key is not configured, or the record was altered. */
export class UnreadableSecret extends Error {}
