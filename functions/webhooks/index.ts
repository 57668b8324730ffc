import { lambdaHandler } from '#core/adapters/lambda-handler';
import { configuredSecretBox } from '#core/adapters/webhook-secrets/configured-secret-box';
import { webhooksFunction } from './definition.ts';

export const handler = lambdaHandler(webhooksFunction, { webhookSecrets: configuredSecretBox });
