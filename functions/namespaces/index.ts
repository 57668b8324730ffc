import { lambdaHandler } from '#core/adapters/lambda-handler';
import { namespacesFunction } from './definition.ts';

export const handler = lambdaHandler(namespacesFunction, {});
