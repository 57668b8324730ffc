import { type Tier, tierNames } from '#core/platform/tiers';
import { workspaceId } from '#core/tenancy/workspace-schemas';
import { findUserIdByEmail } from '#core/users/users';
import { setUserTier, setWorkspaceTier } from '#core/workspaces/workspace-tier';
import { type Command, CommandFailed, idOption, parseOptions, required, UsageError } from './command.ts';

export const tier: Command = {
  name: 'tier',
  summary: "set a workspace's tier (its keys' rate limits follow), or a user's own (the ceiling of the workspaces they create)",
  options: [
    '  --workspace <id>       wks_…: the workspace to change',
    '  --user <email>         or the user to change',
    `  --tier <tier>          required: ${tierNames.join(', ')}`,
  ],
  async run(args, { open, print }) {
    const options = parseOptions(args, { workspace: { type: 'string' }, user: { type: 'string' }, tier: { type: 'string' } });
    const tier = required(options.tier, 'tier');
    if (!(tierNames as readonly string[]).includes(tier)) throw new UsageError(`--tier must be one of ${tierNames.join(', ')}`);
    if ((options.workspace === undefined) === (options.user === undefined)) throw new UsageError('give one of --workspace or --user');
    const deps = await open(options.stack);
    if (options.workspace !== undefined) {
      const workspace = await setWorkspaceTier(deps, idOption(workspaceId, options.workspace, 'workspace'), tier as Tier);
      print(`Workspace ${workspace.id} (${workspace.name}) is now on tier ${workspace.tier}.`);
      return;
    }
    const userId = await findUserIdByEmail(deps, options.user!);
    if (userId === undefined) throw new CommandFailed(`No user has the email ${options.user}.`);
    const user = await setUserTier(deps, userId, tier as Tier);
    print(`User ${user.id} <${user.email}> is now on tier ${user.tier}: they may create workspaces up to it.`);
  },
};
