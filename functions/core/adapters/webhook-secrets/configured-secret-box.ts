import { requiredWebhookSetting } from '#core/platform/webhook-settings';
import type { WebhookSecretBox } from '#core/ports/webhook-secrets';
import { webhookSecretBox } from '#core/webhooks/secret-box';

/**
 * The webhook secrets port's adapter in Lambda: the box of the keys the stack gives
 * (WEBHOOK_SECRET_KEYS). Without them the function fails, rather than seal with a key no
 * other function has.
 */
export const configuredSecretBox = (): WebhookSecretBox => webhookSecretBox(requiredWebhookSetting('WEBHOOK_SECRET_KEYS'));
