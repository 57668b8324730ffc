import { configuredApiGatewayKeys } from '#core/adapters/gateway-keys/configured-gateway-keys';
import { lambdaHandler } from '#core/adapters/lambda-handler';
import { sesMailer } from '#core/adapters/mailer/ses-mailer';
import { sessionsFunction } from './definition.ts';

export const handler = lambdaHandler(sessionsFunction, { mailer: sesMailer, gatewayKeys: configuredApiGatewayKeys });
