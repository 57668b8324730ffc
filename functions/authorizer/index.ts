import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { runtimeDeps } from '#core/adapters/runtime';
import { authorize } from './authorize.ts';

export const handler = (event: APIGatewayRequestAuthorizerEvent) => authorize(runtimeDeps(), event);
