import { lambdaHandler } from '#core/adapters/lambda-handler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { pixelFunction } from './definition.ts';

export const handler = withSecrets(pixelFunction, lambdaHandler(pixelFunction, {}));
