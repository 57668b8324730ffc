import { lambdaHandler } from '#core/adapters/lambda-handler';
import { pixelFunction } from './definition.ts';

export const handler = lambdaHandler(pixelFunction, {});
