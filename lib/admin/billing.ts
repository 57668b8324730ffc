import { workspaceId } from '#core/tenancy/workspace-schemas';
import { billingStatuses } from '#core/workspaces/admin-schemas';
import { type BillingStatus, setBillingStatus } from '#core/workspaces/billing';
import { type Command, idOption, parseOptions, required, UsageError } from './command.ts';

export const billing: Command = {
  name: 'billing',
  summary: 'mark a workspace unpaid (its requests answer 402 PAYMENT_REQUIRED) or paid again',
  options: ['  --workspace <id>       required: wks_…', `  --status <status>      required: ${billingStatuses.join(' or ')}`],
  notes: 'While unpaid, reading, listing and deleting workspaces and the account still answer, so a tenant can settle or leave.',
  async run(args, { open, print }) {
    const options = parseOptions(args, { workspace: { type: 'string' }, status: { type: 'string' } });
    const id = idOption(workspaceId, required(options.workspace, 'workspace'), 'workspace');
    const status = required(options.status, 'status');
    if (!(billingStatuses as readonly string[]).includes(status)) throw new UsageError(`--status must be ${billingStatuses.join(' or ')}`);
    const workspace = await setBillingStatus(await open(options.stack), id, status as BillingStatus);
    print(
      workspace.unpaid_since
        ? `Workspace ${workspace.id} (${workspace.name}) is unpaid since ${workspace.unpaid_since}: its requests answer 402.`
        : `Workspace ${workspace.id} (${workspace.name}) is paid: its requests are served again.`,
    );
  },
};
