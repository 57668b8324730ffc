import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { authorize } from './authorize.ts';
import { authorizerFunction } from './definition.ts';

const deps = lambdaDeps(authorizerFunction, {});

export const handler = (event: APIGatewayRequestAuthorizerEvent) => authorize(deps(), event);
