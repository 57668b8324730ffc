import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from '#core/platform/errors';
import { type Telemetry, telemetry } from '#core/platform/telemetry';
import { acceptedPrincipal } from './authorizer-context.ts';
import { requestIdOf } from './envelope-middleware.ts';

/** The fields of the one line each request logs. Never a header, a cookie, a body or a key. */
export interface RequestLogEntry {
  request_id: string;
  /** Method and API Gateway resource (`GET /api/v1/workspaces/{id}`): ids stay out, routes group. */
  route: string;
  status: number;
  latency_ms: number;
  workspace_id?: string;
  credential_type?: string;
  /** The envelope's code of a 4xx, e.g. VALIDATION_FAILED. */
  error_code?: string;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** The workspace each request acts in, once the dispatcher has resolved it (X-Workspace-ID may name another than the credential's home). */
const actingWorkspaces = new WeakMap<APIGatewayProxyEvent, string>();

/** Notes the workspace a request acts in, for its log line; returns it. */
export function actsIn(event: APIGatewayProxyEvent, workspaceId: string): string {
  actingWorkspaces.set(event, workspaceId);
  return workspaceId;
}

/**
 * Outermost middleware: one log line per request once the envelope has answered it (its
 * `after` and `onError` run last), with the error and its stack for a 5xx, and in Lambda
 * a request count and latency by route and status class.
 */
export function requestLog(sink: () => Telemetry = telemetry): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const started = new WeakMap<APIGatewayProxyEvent, number>();
  const record = async (request: middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const { event, response, error } = request;
    const status = response?.statusCode ?? 500;
    const principal = acceptedPrincipal(event.requestContext?.authorizer);
    const entry: RequestLogEntry = {
      request_id: requestIdOf(event),
      route: `${event.httpMethod} ${event.resource}`,
      status,
      latency_ms: Math.round(performance.now() - (started.get(event) ?? performance.now())),
      ...(principal
        ? { workspace_id: actingWorkspaces.get(event) ?? principal.workspaceId, credential_type: principal.credential.type }
        : {}),
      ...(error instanceof ApiError && status < 500 ? { error_code: error.errorCode } : {}),
    };
    const { logger, metrics } = sink();
    if (status >= 500)
      logger.error('request', { ...entry, error: error instanceof Error ? error : new Error(String(error ?? 'no response')) });
    else logger.info('request', { ...entry });
    if (metrics) {
      metrics.addDimensions({ route: entry.route, status_class: statusClass(status) });
      metrics.addMetric('Requests', MetricUnit.Count, 1);
      metrics.addMetric('Latency', MetricUnit.Milliseconds, entry.latency_ms);
      metrics.publishStoredMetrics();
    }
  };
  return {
    before: async ({ event }) => void started.set(event, performance.now()),
    after: record,
    onError: record,
  };
}
