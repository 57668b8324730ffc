import { webhookConfig } from '#core/platform/webhook-settings';

/** What an attempt needs of the settings: the worker reads them from WEBHOOK_*; tests and the local runner may pass their own. */
export interface DeliveryOptions {
  timeoutMs: number;
  allowInsecure: boolean;
  retryScale: number;
  disableAfter: number;
}

export function deliveryOptions(overrides: Partial<DeliveryOptions> = {}): DeliveryOptions {
  const settings = webhookConfig();
  return {
    timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
    allowInsecure: settings.WEBHOOK_ALLOW_INSECURE,
    retryScale: settings.WEBHOOK_RETRY_SCALE,
    disableAfter: settings.WEBHOOK_DISABLE_AFTER,
    ...overrides,
  };
}
