import * as z from 'zod/mini';
import { withMeta } from '#core/schema-meta';
import { timestamp } from './common.ts';
import { workspace } from './workspaces.ts';

export const suspendBody = z.strictObject({ reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)) });

export const adminWorkspace = withMeta(
  z.extend(workspace, { suspended_at: z.nullable(timestamp), suspended_reason: z.nullable(z.string()) }),
  { id: 'AdminWorkspace', description: 'A workspace with its suspension, as platform admins see it.' },
);
