import { UnreadableSecret, type WebhookSecretBox } from '#core/ports/webhook-secrets';
import type { WebhookEndpointItem } from '#core/store/items';
import { previousSecretSigns, type SignedMessage, type SigningSecrets, signatureHeaders } from './signing.ts';

type SealedSecrets = Pick<WebhookEndpointItem, 'id' | 'sealedSecret' | 'sealedPreviousSecret' | 'previousSecretExpiresAt'>;

/** The secrets that sign the endpoint's sends at `now`, opened; throws UnreadableSecret. */
function signingSecretsOf(box: WebhookSecretBox, endpoint: SealedSecrets, now: Date): SigningSecrets {
  const secret = box.open(endpoint.sealedSecret, endpoint.id, 'secret');
  const { sealedPreviousSecret, previousSecretExpiresAt } = endpoint;
  // The previous secret is opened only while it signs: past its grace period it matters no more.
  if (sealedPreviousSecret === undefined || !previousSecretSigns(previousSecretExpiresAt, now)) return { secret };
  return { secret, previousSecret: box.open(sealedPreviousSecret, endpoint.id, 'previousSecret'), previousSecretExpiresAt };
}

/** What a send records (a delivery) or answers (a test send) when the endpoint's secrets cannot be opened. */
export const unreadableSecretError =
  "The endpoint's signing secret could not be decrypted, so nothing was sent; rotating the secret (POST /webhooks/{id}/rotate-secret) gives the endpoint a new one.";

/**
 * The signed headers of a send to the endpoint at `now`, or the error to record in their
 * place when its secrets cannot be opened: a stored record never fails a request or an attempt.
 */
export function signedHeadersFor(
  box: WebhookSecretBox,
  endpoint: SealedSecrets,
  message: SignedMessage,
  now: Date,
): { headers: Record<string, string> } | { error: string } {
  let secrets: SigningSecrets;
  try {
    secrets = signingSecretsOf(box, endpoint, now);
  } catch (error) {
    if (error instanceof UnreadableSecret) return { error: unreadableSecretError };
    throw error;
  }
  return { headers: signatureHeaders(secrets, message, now) };
}
