import { lambdaHandler } from '#core/adapters/lambda-handler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { configuredSecretBox } from '#core/adapters/webhook-secrets/configured-secret-box';
import { webhooksFunction } from './definition.ts';

export const handler = withSecrets(webhooksFunction, lambdaHandler(webhooksFunction, { webhookSecrets: configuredSecretBox }));
