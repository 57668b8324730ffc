import { operationsOf } from '#core/http/dispatch';
import { type HttpHandler, httpHandler } from '#core/http/http-handler';
import type { AnyRouteFunction, PortAdapters, PortName } from './function-definition.ts';
import { lambdaDeps } from './lambda-deps.ts';

/** A route function's Lambda handler: its operations over HTTP, with the ports it declares. */
export function lambdaHandler<P extends PortName>(definition: AnyRouteFunction<P>, adapters: PortAdapters<P>): HttpHandler {
  return httpHandler({ operations: operationsOf(definition), deps: lambdaDeps(definition, adapters), idempotency: definition.idempotency });
}
