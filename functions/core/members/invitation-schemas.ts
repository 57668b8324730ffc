import * as z from 'zod/mini';
import { timestamp } from '#core/platform/common-schemas';
import { withMeta } from '#core/platform/schema-meta';
import { invitedRoles } from '#core/store/roles';
import { workspaceSummary } from '#core/tenancy/workspace-schemas';

const invitedRole = z.enum(invitedRoles);

export const invitation = withMeta(
  z.object({
    workspace_id: z.string(),
    workspace_name: z.string(),
    role: invitedRole,
    created_at: timestamp,
    expires_at: timestamp,
  }),
  { id: 'Invitation', description: 'An invitation into another workspace, waiting for its user.' },
);

export const sentInvitation = withMeta(
  z.object({ email: z.string(), role: invitedRole, workspace_id: z.string(), status: z.literal('invited'), expires_at: timestamp }),
  {
    id: 'SentInvitation',
    description: 'An invitation sent by email: its person joins once they accept (with a verified account of that email).',
  },
);

export const joinedWorkspace = withMeta(z.extend(workspaceSummary, { role: invitedRole }), { id: 'JoinedWorkspace' });
