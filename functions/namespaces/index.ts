import { lambdaHandler } from '#core/adapters/lambda-handler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { namespacesFunction } from './definition.ts';

export const handler = withSecrets(namespacesFunction, lambdaHandler(namespacesFunction, {}));
