import { grants } from '#core/access/scopes';
import { countOneUse } from '#core/entitlements/limited-counts';
import { refuseLiveChangeByTestKey } from '#core/http/dispatch';
import { invokeOperation, type OperationAnswer, type OperationCaller, type OperationInput } from '#core/http/operation-invocation';
import type { CredentialRoute } from '#core/http/route-types';
import { workspaceScopeById } from '#core/namespaces/workspace-scope';
import { InsufficientPermissions, NotFound, ValidationFailed } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { type CutAnswer, withinResultGuard } from './result-guard.ts';
import { type McpTool, type ToolCatalogue, toolPageSize } from './tool-catalogue.ts';

/** An argument as a path or query parameter: text, as a client would put it in a URL. */
function parameterText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value.join(',');
  throw new ValidationFailed({ [`arguments.${name}`]: ['must be a string, a number, a boolean or a list of them'] });
}

/** A tool's arguments as its operation's request: each where its route takes it. */
function inputOf(tool: McpTool, args: Record<string, unknown>): OperationInput {
  const input: OperationInput & { body: Record<string, unknown> } = { params: {}, query: {}, body: {} };
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    // Own entries only: `constructor` or `toString` is no parameter of any tool.
    const place = Object.hasOwn(tool.places, name) ? tool.places[name] : tool.route.body ? 'body' : undefined;
    if (!place) {
      const known = Object.keys(tool.places);
      throw new ValidationFailed({
        [`arguments.${name}`]: [
          `is not a parameter of ${tool.name}${known.length ? `; it takes ${known.join(', ')}` : ', which takes none'}`,
        ],
      });
    }
    // Defined, not assigned: a `__proto__` argument stays a field the operation refuses, not the body's prototype.
    if (place === 'body') Object.defineProperty(input.body, name, { value, enumerable: true, writable: true, configurable: true });
    else input[place === 'path' ? 'params' : 'query'][name] = parameterText(name, value);
  }
  const missing = Object.entries(tool.places).filter(([name, place]) => place === 'path' && input.params[name] === undefined);
  if (missing.length) throw new ValidationFailed(Object.fromEntries(missing.map(([name]) => [`arguments.${name}`, ['is required']])));
  if (tool.places.per_page === 'query') input.query.per_page ??= String(toolPageSize);
  return { ...input, body: tool.route.body ? input.body : undefined };
}

/** The tool a call names, if the caller may see it: an unknown server or tool is 404. */
export function toolFor(catalogue: ToolCatalogue, server: string, name: string): McpTool {
  const found = catalogue.findTool(name, server);
  if (!found) throw new NotFound('mcp tool', `${server}/${name}`);
  return found.tool;
}

/**
 * An operation's 422 as the tool's: each field it names that is one of the tool's arguments
 * (`title`, `body.title`, `query.per_page`) named as the argument (`arguments.title`), as
 * the call's own refusals name them.
 */
function withArgumentPaths(tool: McpTool, answer: OperationAnswer): OperationAnswer {
  const errors = answer.status === 422 ? (answer.body as { errors?: Record<string, string[]> }).errors : undefined;
  if (!errors) return answer;
  const argumentOf = (field: string) => {
    const name = field.replace(/^(body|query|path)\./, '');
    return tool.places[name.split('.')[0]!] ? `arguments.${name}` : field;
  };
  const body = {
    ...(answer.body as object),
    errors: Object.fromEntries(Object.entries(errors).map(([field, problems]) => [argumentOf(field), problems])),
  };
  return { ...answer, body, text: JSON.stringify(body) };
}

export interface ToolResult extends CutAnswer {
  /** The operation's answer, as it gave it: an error's status and envelope included. */
  answer: OperationAnswer;
}

/**
 * Runs a tool as the caller: its operation's own scope first (403 naming it, before a call
 * is counted), then one `mcp_calls` of the workspace (403 at its monthly limit), then the
 * operation itself in its function, through the same dispatch as a direct request.
 */
export async function callTool(deps: Deps, caller: OperationCaller, tool: McpTool, args: Record<string, unknown>): Promise<ToolResult> {
  const { scope } = tool.route;
  if (!grants(caller.principal.scopes, scope!)) throw new InsufficientPermissions(scope!, caller.principal.scopes);
  refuseLiveChangeByTestKey(tool.route as CredentialRoute, caller.principal);
  const input = inputOf(tool, args);
  await countOneUse(deps, await workspaceScopeById(deps, caller.workspaceId, caller.principal.environment), 'mcp_calls');
  // The call holds a concurrency slot (callMcpTool limits concurrency): a batch it runs takes no second one.
  const holding = { ...caller, principal: { ...caller.principal, holdsConcurrencySlot: true as const } };
  const answer = withArgumentPaths(tool, await invokeOperation(deps.routeInvoker, holding, tool.route, input));
  return { answer, ...withinResultGuard(answer) };
}
