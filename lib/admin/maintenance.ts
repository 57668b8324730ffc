import { maintenanceCacheMs, readMaintenance, switchMaintenanceOff, switchMaintenanceOn } from '#core/operations/maintenance';
import { type Command, parseOptions, UsageError } from './command.ts';

const reach = `every running function answers it within ${maintenanceCacheMs / 1000} seconds, without a redeploy`;

/** `maintenance on`: like Laravel's `artisan down`, the switch every function reads from the table. */
export const maintenanceOn: Command = {
  name: 'maintenance on',
  summary: 'take the service down: every request but /health and the platform admin routes answers 503 MAINTENANCE_MODE',
  options: [
    '  --retry-after <s>      seconds the 503s tell clients to wait in Retry-After (default 300)',
    '  --message <text>       the 503s message (default: down for maintenance; retry later)',
  ],
  notes: `The switch is an item in the table: ${reach}. MAINTENANCE_MODE=1 is the deploy-time switch.`,
  async run(args, { open, print }) {
    const options = parseOptions(args, { 'retry-after': { type: 'string' }, message: { type: 'string' } });
    const retryAfter = Number(options['retry-after'] ?? '300');
    if (!/^\d{1,5}$/.test(options['retry-after'] ?? '300') || retryAfter < 1 || retryAfter > 86_400) {
      throw new UsageError('--retry-after must be a whole number of seconds from 1 to 86400');
    }
    const state = await switchMaintenanceOn(await open(options.stack), retryAfter, options.message?.trim() || undefined);
    print(`Maintenance on since ${state.since} (Retry-After: ${state.retryAfter}); ${reach}.`);
  },
};

export const maintenanceOff: Command = {
  name: 'maintenance off',
  summary: 'bring the service back from maintenance',
  options: [],
  async run(args, { open, print }) {
    const options = parseOptions(args, {});
    await switchMaintenanceOff(await open(options.stack));
    print(`Maintenance off; ${reach}.`);
  },
};

export const maintenanceStatus: Command = {
  name: 'maintenance status',
  summary: 'say whether the maintenance switch is on',
  options: [],
  notes: 'MAINTENANCE_MODE=1 in a deployed function is configuration, which this command cannot see.',
  async run(args, { open, print }) {
    const options = parseOptions(args, {});
    const state = await readMaintenance(await open(options.stack));
    print(
      state
        ? `Maintenance on since ${state.since} (Retry-After: ${state.retryAfter})${state.message ? `: ${state.message.replace(/\.$/, '')}` : ''}.`
        : 'Maintenance off.',
    );
  },
};
