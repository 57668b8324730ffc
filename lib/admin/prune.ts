import { pruneExpired } from '#core/operations/pruning';
import { type Command, parseOptions } from './command.ts';

export const prune: Command = {
  name: 'prune',
  summary: 'run the pruning job now: delete finished API keys, user tokens, invitations, account tokens, sessions and throttle windows',
  options: [],
  notes: 'Deletes only what the scheduled job deletes (functions/core/operations/pruning.ts); prints what it deleted.',
  async run(args, { open, print }) {
    const options = parseOptions(args, {});
    const counts = await pruneExpired(await open(options.stack));
    const rows = [
      ['API keys', counts.apiKeys],
      ['user tokens', counts.userTokens],
      ['invitations', counts.invitations],
      ['pending invitations', counts.pendingInvitations],
      ['account tokens', counts.accountTokens],
      ['sessions', counts.sessions],
      ['throttle windows', counts.throttleWindows],
    ] as const;
    print(`Pruned ${rows.reduce((sum, [, n]) => sum + n, 0)} items:`);
    for (const [what, n] of rows) print(`  ${what.padEnd(19)} ${n}`);
  },
};
