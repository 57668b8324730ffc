import * as z from 'zod/mini';
import { timestamp } from '#core/platform/common-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';
import { multiLine } from '#core/platform/text-rules';
import { tierNames } from '#core/platform/tiers';
import { workspace } from '#core/tenancy/workspace-schemas';

export const suspendBody = z.strictObject({ reason: z.string().check(multiLine(), z.trim(), z.minLength(1), z.maxLength(500)) });

export const adminWorkspaceChanges = z.strictObject({
  tier: describe(z.enum(tierNames), "The workspace's new tier, whatever its creator's own: its keys' rate limits follow at once."),
});

export const adminWorkspace = withMeta(
  z.extend(workspace, { suspended_at: z.nullable(timestamp), suspended_reason: z.nullable(z.string()) }),
  { id: 'AdminWorkspace', description: 'A workspace with its suspension, as platform admins see it.' },
);
