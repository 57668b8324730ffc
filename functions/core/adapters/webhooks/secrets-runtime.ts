import { webhookConfig } from '#core/platform/webhook-settings';
import type { Deps } from '#core/ports/deps';
import { type WebhookSecretBox } from '#core/ports/webhook-secrets';
import { webhookSecretBox } from '#core/webhooks/secret-box';

/** The box WEBHOOK_SECRET_KEYS configures; without it the function fails, rather than seal with a key no other function has. */
function configuredSecretBox(): WebhookSecretBox {
  const keys = webhookConfig().WEBHOOK_SECRET_KEYS;
  if (!keys) throw new Error('WEBHOOK_SECRET_KEYS is not set: this function cannot seal or open webhook secrets.');
  return webhookSecretBox(keys);
}

/**
 * A function's dependencies with the keys of webhook secrets, read once per process, for
 * the only functions the stack gives them: webhooks (create, rotate), webhook-deliveries
 * (test sends) and the worker. A module of its own, so that no other bundle holds them.
 */
export function withWebhookSecrets(base: () => Deps): () => Deps {
  let deps: Deps | undefined;
  return () => (deps ??= { ...base(), webhookSecrets: configuredSecretBox() });
}
