import * as z from 'zod/mini';
import { idPattern } from '#core/platform/ids';
import type { DeliveryMessage } from '#core/ports/webhook-delivery';
import { maxAttempts } from './ladder.ts';

const deliveryMessage = z.object({
  deliveryId: z.string().check(z.regex(idPattern('delivery'))),
  webhookId: z.string().check(z.regex(idPattern('webhook'))),
  attempt: z.int().check(z.gte(1), z.lte(maxAttempts)),
});

/** A queue message's body as the message it carries, or undefined when it is none (such a message is dropped, never retried). */
export function parseDeliveryMessage(body: string): DeliveryMessage | undefined {
  try {
    const parsed = deliveryMessage.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
