import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Principal } from '#core/access/principal';
import { ApiError } from '#core/platform/errors';
import { type Telemetry, telemetry } from '#core/platform/telemetry';

/** The fields of the one line each request logs. Never a header, a cookie, a body or a key. */
interface RequestLogEntry {
  request_id: string;
  /** Method and API Gateway resource (`GET /api/v1/workspaces/{id}`): ids stay out, routes group. */
  route: string;
  status: number;
  latency_ms: number;
  workspace_id?: string;
  credential_type?: string;
  /** The envelope's code of a 4xx, e.g. VALIDATION_FAILED, or of maintenance's 503. */
  error_code?: string;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** What one request came to, for its log line. */
export interface RequestOutcome {
  event: APIGatewayProxyEvent;
  /** The id the answer carries (proxy-event.ts, requestIdOf). */
  requestId: string;
  status: number;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** The credential the authorizer accepted; none on public routes and for refused credentials. */
  principal?: Principal;
  /** The workspace the request acted in, where the client named another than the credential's home. */
  actedIn?: string;
  error?: unknown;
}

/**
 * One log line per answered request, with the error and its stack for a 5xx (but for
 * maintenance's, which the operator chose), and in Lambda
 * a request count and latency by route and status class.
 */
export function logRequest(outcome: RequestOutcome, sink: () => Telemetry = telemetry): void {
  const { event, status, principal, error } = outcome;
  // A refusal, not a fault: a 4xx, or the 503 of maintenance the operator switched on (no stack trace for each request).
  const answered = error instanceof ApiError && (status < 500 || error.errorCode === 'MAINTENANCE_MODE');
  const entry: RequestLogEntry = {
    request_id: outcome.requestId,
    route: `${event.httpMethod} ${event.resource}`,
    status,
    latency_ms: Math.round(performance.now() - outcome.startedAt),
    ...(principal ? { workspace_id: outcome.actedIn ?? principal.workspaceId, credential_type: principal.credential.type } : {}),
    ...(answered ? { error_code: (error as ApiError).errorCode } : {}),
  };
  const { logger, metrics } = sink();
  if (status >= 500 && !answered)
    logger.error('request', { ...entry, error: error instanceof Error ? error : new Error(String(error ?? 'no response')) });
  else logger.info('request', { ...entry });
  if (metrics) {
    metrics.addDimensions({ route: entry.route, status_class: statusClass(status) });
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    metrics.addMetric('Latency', MetricUnit.Milliseconds, entry.latency_ms);
    metrics.publishStoredMetrics();
  }
}
