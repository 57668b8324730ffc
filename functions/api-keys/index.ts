import { lambdaHandler } from '#core/adapters/lambda-handler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { apiKeysFunction } from './definition.ts';

export const handler = withSecrets(apiKeysFunction, lambdaHandler(apiKeysFunction, {}));
