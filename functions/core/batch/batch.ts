import type * as z from 'zod/mini';
import type { Principal } from '#core/access/principal';
import { type CallOrigin, callWith, dispatch, type Operation } from '#core/http/dispatch';
import { errorAnswer } from '#core/http/error-answer';
import { ValidationFailed } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import type { BatchOperation, batchResult } from './batch-schemas.ts';

/** The single routes a batch operation runs as, by what it does to which resource. */
export interface BatchOperations {
  createPost: Operation;
  updatePost: Operation;
  createCategory: Operation;
  updateCategory: Operation;
}

const updatedByPrefix = { post_: 'posts', cat_: 'categories' } as const;

type RouteOfOperation =
  | { run: Operation; params: Record<string, string>; problem?: never }
  | { run?: never; problem: Record<string, string[]> };

/** The route an operation runs as and its path parameters, or why it names none (a 422 of its own). */
function routeOf(operation: BatchOperation, operations: BatchOperations): RouteOfOperation {
  if (operation.action === 'create') {
    if (operation.id !== undefined) return { problem: { id: ['goes only with action update: a create is given its id'] } };
    const resource = operation.resource ?? 'posts';
    return { run: resource === 'posts' ? operations.createPost : operations.createCategory, params: {} };
  }
  if (operation.id === undefined) return { problem: { id: ['is required with action update'] } };
  const prefix = Object.keys(updatedByPrefix).find((p) => operation.id!.toLowerCase().startsWith(p)) as
    | keyof typeof updatedByPrefix
    | undefined;
  if (!prefix) return { problem: { id: ['must be a post id (post_...) or a category id (cat_...)'] } };
  const resource = updatedByPrefix[prefix];
  if (operation.resource !== undefined && operation.resource !== resource) {
    return { problem: { resource: [`is ${operation.resource}, but ${operation.id} is one of ${resource}`] } };
  }
  return { run: resource === 'posts' ? operations.updatePost : operations.updateCategory, params: { id: operation.id } };
}

/**
 * Runs a batch's operations one after another, each through dispatch as its single route
 * runs (its scope, test mode, validation, workspace, entitlements, events), as the batch's
 * credential in the batch's workspace, and each on its own: one that fails leaves the
 * others be. The batch's Idempotency-Key covers them all, so none takes its own.
 */
export async function runBatch(
  request: CallOrigin & { principal: Principal; workspaceId: string },
  deps: Deps,
  operations: readonly BatchOperation[],
  all: BatchOperations,
) {
  const origin = { requestId: request.requestId, sourceIp: request.sourceIp, url: request.url, baseUrl: request.baseUrl };
  const results: z.output<typeof batchResult>[] = [];
  for (const [index, operation] of operations.entries()) {
    const route = routeOf(operation, all);
    const answer = route.run
      ? await dispatch(
          route.run,
          callWith({
            path: request.url.pathname,
            params: route.params,
            query: {},
            headers: { 'x-workspace-id': request.workspaceId },
            body: operation.data,
          }),
          { principal: request.principal, deps, origin },
        )
      : errorAnswer(new ValidationFailed(route.problem), request.requestId);
    // The single routes' answers, as their schemas declare them: `{ message, data }`, or the error envelope.
    type Result = z.output<typeof batchResult>;
    results.push(
      answer.status < 400
        ? { index, status: answer.status, data: (answer.body as Pick<Result, 'data'>).data }
        : { index, status: answer.status, error: answer.body as Result['error'] },
    );
  }
  const failed = results.filter((result) => result.status >= 400).length;
  return { data: results, meta: { succeeded: results.length - failed, failed } };
}
