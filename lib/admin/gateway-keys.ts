import { reconcileGatewayKeys } from '#core/operations/gateway-key-reconciliation';
import { type Command, parseOptions } from './command.ts';

export const reconcileGatewayKeysCommand: Command = {
  name: 'gateway-keys reconcile',
  summary:
    "run the gateway key reconciliation job now: delete keys left behind, move keys into their tier's plan, give sharers keys of their own",
  options: [],
  notes: [
    'Does what the hourly schedule does (functions/core/operations/gateway-key-reconciliation.ts) and prints what it changed;',
    "a second run changes nothing. With --stack (or GATEWAY_USAGE_PLANS) it acts on API Gateway's keys; against a local",
    "table the keys are the CLI's own stand-in, as for tier: the local runner runs the job itself (RECONCILE_INTERVAL_SECONDS).",
  ].join('\n'),
  async run(args, { open, print }) {
    const options = parseOptions(args, {});
    const result = await reconcileGatewayKeys(await open(options.stack));
    print(`Keys left behind deleted:           ${result.orphansRemoved}`);
    print(`Keys moved into their tier's plan:  ${result.keysMoved}`);
    print(`Sharers given a key of their own:   ${result.sharersGivenKeys}`);
  },
};
