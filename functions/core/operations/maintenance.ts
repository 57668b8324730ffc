import { config } from '#core/platform/config';
import { MaintenanceMode } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { hotPath } from '#core/store/hot-path';

/** The operator's switch as the table holds it. */
export interface Maintenance {
  since: string;
  retryAfter: number;
  message?: string;
}

/**
 * How long a process trusts what it read of the switch: `maintenance on` reaches every
 * running function within this, without a redeploy, and a request costs one eventually
 * consistent GetItem per process (Lambda container) per period, nothing in between.
 */
export const maintenanceCacheMs = 5_000;

const cache = new Map<string, { readAt: number; state: Maintenance | undefined }>();

/** The switch as stored, read now: the admin CLI's `maintenance status`. */
export async function readMaintenance(deps: Pick<Deps, 'db'>): Promise<Maintenance | undefined> {
  const { data } = await deps.db.entities.maintenance.get({}).go(hotPath);
  return data ? { since: data.since, retryAfter: data.retryAfter, ...(data.message ? { message: data.message } : {}) } : undefined;
}

/** `maintenance on`: every function refuses from its next read of the switch on. */
export async function switchMaintenanceOn(deps: Pick<Deps, 'db' | 'clock'>, retryAfter: number, message?: string): Promise<Maintenance> {
  const state = { since: deps.clock.now().toISOString(), retryAfter, ...(message ? { message } : {}) };
  await deps.db.entities.maintenance.put(state).go();
  return state;
}

/** `maintenance off`. */
export async function switchMaintenanceOff(deps: Pick<Deps, 'db'>): Promise<void> {
  await deps.db.entities.maintenance.delete({}).go();
}

/** The switch through the process's cache (one cache per table: a test process serves several). */
async function cachedMaintenance(deps: Pick<Deps, 'db'>): Promise<Maintenance | undefined> {
  const key = deps.db.table.name;
  const cached = cache.get(key);
  if (cached && Date.now() - cached.readAt < maintenanceCacheMs) return cached.state;
  const state = await readMaintenance(deps);
  cache.set(key, { readAt: Date.now(), state });
  return state;
}

/**
 * Refuses a request with 503 MAINTENANCE_MODE while the service is down for maintenance:
 * by configuration (MAINTENANCE_MODE=1, a deploy-time switch) or by the operator's switch
 * in the table. The platform admin routes stay open, so an operator can still work (as do
 * `/health`, which no function serves, and the admin CLI, which goes to the table).
 */
export async function refuseDuringMaintenance(deps: Pick<Deps, 'db'>, route: { platformAdmin?: boolean }): Promise<void> {
  if (route.platformAdmin) return;
  const { MAINTENANCE_MODE, MAINTENANCE_RETRY_AFTER } = config();
  if (MAINTENANCE_MODE) throw new MaintenanceMode(MAINTENANCE_RETRY_AFTER);
  const state = await cachedMaintenance(deps);
  if (state) throw new MaintenanceMode(state.retryAfter, state.message);
}
