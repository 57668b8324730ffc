import { sqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { lambdaHandler } from '#core/adapters/lambda-handler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { configuredSecretBox } from '#core/adapters/webhook-secrets/configured-secret-box';
import { webhookDeliveriesFunction } from './definition.ts';

export const handler = withSecrets(
  webhookDeliveriesFunction,
  lambdaHandler(webhookDeliveriesFunction, { deliveryQueue: sqsDeliveryQueue, webhookSecrets: configuredSecretBox }),
);
