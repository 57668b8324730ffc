import { lambdaHandler } from '#core/adapters/lambda-handler';
import { seoFunction } from './definition.ts';

export const handler = lambdaHandler(seoFunction, {});
