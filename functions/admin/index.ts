import { configuredApiGatewayKeys } from '#core/adapters/gateway-keys/configured-gateway-keys';
import { lambdaHandler } from '#core/adapters/lambda-handler';
import { adminFunction } from './definition.ts';

export const handler = lambdaHandler(adminFunction, { gatewayKeys: configuredApiGatewayKeys });
