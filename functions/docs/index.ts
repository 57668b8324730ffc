import { lambdaDeps } from '#core/adapters/lambda-deps';
import { docsFunction } from './definition.ts';
import { docsHandler } from './handlers.ts';

export const handler = docsHandler({ deps: lambdaDeps(docsFunction, {}) });
