import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { config } from './config.ts';

/** Where a process writes its logs and, in Lambda, its metrics. */
export interface Telemetry {
  logger: Logger;
  /** Only in Lambda, where CloudWatch turns its EMF lines into metrics; elsewhere they would be noise. */
  metrics?: Metrics;
}

/** Also the `service` dimension of every metric (Powertools' default), which the stack's alarms name. */
export const serviceName = 'tenant-api';

let made: Telemetry | undefined;

/**
 * The process's logger and metrics, made on first use from config(). Outside Lambda the
 * log level defaults to WARN: the local runner prints its own short request line, and the
 * tests stay quiet, while errors (with their stacks) still show.
 */
export function telemetry(): Telemetry {
  if (made) return made;
  const cfg = config();
  const inLambda = cfg.AWS_LAMBDA_FUNCTION_NAME !== undefined;
  made = {
    logger: new Logger({ serviceName, logLevel: cfg.LOG_LEVEL ?? (inLambda ? 'INFO' : 'WARN') }),
    metrics: inLambda ? new Metrics({ serviceName, namespace: cfg.METRICS_NAMESPACE }) : undefined,
  };
  return made;
}
