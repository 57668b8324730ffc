import { sqsDeliveryQueue } from '#core/adapters/delivery-queue/sqs-delivery-queue';
import { lambdaHandler } from '#core/adapters/lambda-handler';
import { configuredSecretBox } from '#core/adapters/webhook-secrets/configured-secret-box';
import { webhookDeliveriesFunction } from './definition.ts';

export const handler = lambdaHandler(webhookDeliveriesFunction, { deliveryQueue: sqsDeliveryQueue, webhookSecrets: configuredSecretBox });
