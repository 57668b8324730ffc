import { lambdaHandler } from '#core/adapters/lambda-handler';
import { entitlementsFunction } from './definition.ts';

export const handler = lambdaHandler(entitlementsFunction, {});
