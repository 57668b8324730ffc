import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { config } from '#core/platform/config';
import type { RouteInvoker } from '#core/ports/route-invoker';

/**
 * The route invoker in AWS: a synchronous Lambda invoke of the function the stack
 * deployed for the route's folder (ROUTE_FUNCTIONS names them). A function that fails
 * outright (a crash, a timeout) is a fault of ours, thrown, as API Gateway would answer 502.
 */
export function lambdaRouteInvoker(client = new LambdaClient({})): RouteInvoker {
  return {
    invoke: async (functionName, event) => {
      const deployed = config().ROUTE_FUNCTIONS?.[functionName];
      if (!deployed) throw new Error(`ROUTE_FUNCTIONS names no function for ${functionName}.`);
      const answer = await client.send(new InvokeCommand({ FunctionName: deployed, Payload: new TextEncoder().encode(event) }));
      const payload = answer.Payload ? new TextDecoder().decode(answer.Payload) : '';
      if (answer.FunctionError) throw new Error(`${functionName} failed (${answer.FunctionError}): ${payload.slice(0, 500)}`);
      return payload;
    },
  };
}
