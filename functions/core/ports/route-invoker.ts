/**
 * Runs a request in the function that serves its route, as API Gateway would invoke it, so that
 * an MCP tool call reaches an operation without the MCP functions bundling every other
 * function's code. The event carries the caller's credential as the authorizer found it, so
 * that the operation runs under the caller's own rules.
 */
export interface RouteInvoker {
  invoke(functionName: string, event: string): Promise<string>;
}
