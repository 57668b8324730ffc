import { configuredApiGatewayKeys } from '#core/adapters/gateway-keys/configured-gateway-keys';
import { lambdaHandler } from '#core/adapters/lambda-handler';
import { withSecrets } from '#core/adapters/secrets/function-secrets';
import { workspacesFunction } from './definition.ts';

export const handler = withSecrets(workspacesFunction, lambdaHandler(workspacesFunction, { gatewayKeys: configuredApiGatewayKeys }));
