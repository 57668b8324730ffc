import { z } from 'zod';
import { timestamp } from './common.ts';
import { workspace } from './workspaces.ts';

export const suspendBody = z.strictObject({ reason: z.string().trim().min(1).max(500) });

export const adminWorkspace = workspace
  .extend({ suspended_at: timestamp.nullable(), suspended_reason: z.string().nullable() })
  .meta({ id: 'AdminWorkspace', description: 'A workspace with its suspension, as platform admins see it.' });
