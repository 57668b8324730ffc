import { lambdaHandler } from '#core/adapters/lambda-handler';
import { mcpFunction } from './definition.ts';

export const handler = lambdaHandler(mcpFunction, {});
