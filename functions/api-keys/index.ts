import { lambdaHandler } from '#core/adapters/lambda-handler';
import { apiKeysFunction } from './definition.ts';

export const handler = lambdaHandler(apiKeysFunction, {});
