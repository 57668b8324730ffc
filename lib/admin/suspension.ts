import { workspaceId } from '#core/tenancy/workspace-schemas';
import { resumeWorkspace, suspendWorkspace } from '#core/workspaces/suspension';
import { type Command, idOption, parseOptions, required } from './command.ts';

export const suspend: Command = {
  name: 'suspend',
  summary: 'suspend a workspace: every request in it answers 403 WORKSPACE_SUSPENDED',
  options: ['  --workspace <id>       required: wks_…', '  --reason <text>        required: shown to its callers in meta.reason'],
  async run(args, { open, print }) {
    const options = parseOptions(args, { workspace: { type: 'string' }, reason: { type: 'string' } });
    const id = idOption(workspaceId, required(options.workspace, 'workspace'), 'workspace');
    const reason = required(options.reason?.trim(), 'reason');
    const workspace = await suspendWorkspace(await open(options.stack), id, reason);
    print(`Suspended workspace ${workspace.id} (${workspace.name}) at ${workspace.suspended_at}: ${workspace.suspended_reason}`);
  },
};

export const resume: Command = {
  name: 'resume',
  summary: "lift a workspace's suspension",
  options: ['  --workspace <id>       required: wks_…'],
  async run(args, { open, print }) {
    const options = parseOptions(args, { workspace: { type: 'string' } });
    const id = idOption(workspaceId, required(options.workspace, 'workspace'), 'workspace');
    const workspace = await resumeWorkspace(await open(options.stack), id);
    print(`Resumed workspace ${workspace.id} (${workspace.name}): its requests are served again.`);
  },
};
