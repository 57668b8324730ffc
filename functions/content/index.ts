import { lambdaHandler } from '#core/adapters/lambda-handler';
import { contentFunction } from './definition.ts';

export const handler = lambdaHandler(contentFunction, {});
