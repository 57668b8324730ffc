import { lambdaHandler } from '#core/adapters/lambda-handler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { seoFunction } from './definition.ts';

export const handler = withSecrets(seoFunction, lambdaHandler(seoFunction, {}));
