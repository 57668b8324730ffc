import { lambdaHandler } from '#core/adapters/lambda-handler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { contentFunction } from './definition.ts';

export const handler = withSecrets(contentFunction, lambdaHandler(contentFunction, {}));
