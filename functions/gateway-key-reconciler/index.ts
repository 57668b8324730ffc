import type { Context, ScheduledEvent } from 'aws-lambda';
import { configuredApiGatewayKeys } from '#core/adapters/gateway-keys/configured-gateway-keys';
import { lambdaDeps } from '#core/adapters/lambda-deps';
import { type ReconciliationCounts, reconcileGatewayKeys } from '#core/operations/gateway-key-reconciliation';
import { telemetry } from '#core/platform/telemetry';
import { gatewayKeyReconcilerFunction } from './definition.ts';

/** Time kept back from the Lambda timeout to finish the key in hand and log. */
const reserveMs = 15_000;

const deps = lambdaDeps(gatewayKeyReconcilerFunction, { gatewayKeys: configuredApiGatewayKeys });

/**
 * The EventBridge schedule's target: brings API Gateway's workspace keys and the table back
 * together (core/operations/gateway-key-reconciliation.ts) and logs what it changed. A run that
 * nears the timeout stops; the next run goes on from there.
 */
export async function handler(_event: ScheduledEvent, context: Context): Promise<ReconciliationCounts & { complete: boolean }> {
  const started = Date.now();
  const result = await reconcileGatewayKeys(deps(), { shouldStop: () => context.getRemainingTimeInMillis() < reserveMs });
  telemetry().logger.info('gateway keys reconciled', { ...result, durationMs: Date.now() - started });
  return result;
}
