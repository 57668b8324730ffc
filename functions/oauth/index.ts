import { lambdaHandler } from '#core/adapters/lambda-handler';
import { oauthFunction } from './definition.ts';

export const handler = lambdaHandler(oauthFunction, {});
