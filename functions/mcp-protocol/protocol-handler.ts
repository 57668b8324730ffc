import { grants } from '#core/access/scopes';
import { decodeVerdict } from '#core/http/authorizer-context';
import { errorAnswer } from '#core/http/error-answer';
import { httpAnswer } from '#core/http/http-answer';
import type { HttpHandler } from '#core/http/http-handler';
import { wellFormedWorkspaceId } from '#core/http/named-workspace';
import { absoluteUrl, lowerCaseHeaders, requestIdOf } from '#core/http/proxy-event';
import { logRequest } from '#core/http/request-log';
import { assertBodySize, bodyOf } from '#core/http/request-parts';
import type { ApiResponse } from '#core/http/types';
import type { ToolCatalogue } from '#core/mcp/tool-catalogue';
import { InsufficientPermissions, InvalidFormat } from '#core/platform/errors';
import { validate } from '#core/platform/validation';
import type { RouteInvoker } from '#core/ports/route-invoker';
import { serveMcp } from './protocol-server.ts';
import { mcpProtocolRoutes } from './routes.ts';

const [route] = mcpProtocolRoutes;

/**
 * The MCP protocol's HTTP side. It holds no table: tool calls and resource reads go to the mcp
 * function's REST routes, which dispatch runs, so that without the table's client and ElectroDB
 * the MCP SDK fits the bundle within 1 MiB (docs/performance.md).
 */
export function mcpProtocolHandler(catalogue: ToolCatalogue, invoker: () => RouteInvoker): HttpHandler {
  return async (event) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(event);
    let principal: ReturnType<typeof decodeVerdict> | undefined;
    let answer: ApiResponse & { error?: unknown };
    try {
      assertBodySize(event);
      principal = decodeVerdict(event.requestContext.authorizer);
      if (!grants(principal.scopes, route.scope)) throw new InsufficientPermissions(route.scope, principal.scopes);
      const body = validate(route.body, bodyOf(route, event) ?? {}, 'body');
      const headers = lowerCaseHeaders(event);
      // Named as any route names it; the mcp function checks it is the credential's to act in, on every call and read.
      const named = headers['x-workspace-id'] || event.queryStringParameters?.workspace_id;
      const workspaceId = named ? wellFormedWorkspaceId(named) : principal.workspaceId;
      const caller = { principal, workspaceId, requestId, sourceIp: event.requestContext.identity.sourceIp, url: absoluteUrl(event) };
      const served = await serveMcp(catalogue, invoker(), caller, headers, body);
      // What the transport refuses (an Accept without text/event-stream, a message that is not JSON-RPC) is a 400 in the envelope.
      if (served.status >= 400) {
        const refusal = (served.body as { error?: { message?: string } } | undefined)?.error?.message;
        throw new InvalidFormat(`MCP: ${refusal ?? 'the request was refused'}`);
      }
      answer = served.status === 202 ? { status: 202 } : { status: 200, body: served.body };
    } catch (error) {
      answer = { ...errorAnswer(error, requestId), error };
    }
    logRequest({ startedAt, event, requestId, status: answer.status, principal, error: answer.error });
    return httpAnswer(event, requestId, answer, principal);
  };
}
