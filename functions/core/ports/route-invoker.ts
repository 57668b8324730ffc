/**
 * Runs a request in the function that serves its route, as API Gateway would have invoked
 * it: how an MCP tool call reaches an operation without the MCP functions holding every
 * other function's code (their bundles together pass the 1 MiB goal). The request is API
 * Gateway's proxy event and the answer its proxy result, both as JSON, as Lambda's Invoke
 * carries them; the event holds the caller's credential as the authorizer established it,
 * so the operation runs under the same rules as the caller's own request.
 */
export interface RouteInvoker {
  invoke(functionName: string, event: string): Promise<string>;
}
