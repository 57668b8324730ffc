import * as z from 'zod/mini';
import { timestamp } from '#core/platform/common-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';
import { multiLine } from '#core/platform/text-rules';
import { tierNames } from '#core/platform/tiers';
import { workspace } from '#core/tenancy/workspace-schemas';

export const suspendBody = z.strictObject({ reason: z.string().check(multiLine(), z.trim(), z.minLength(1), z.maxLength(500)) });

export const billingStatuses = ['paid', 'unpaid'] as const;

export const adminWorkspaceChanges = z
  .strictObject({
    tier: z.optional(
      describe(z.enum(tierNames), "The workspace's new tier, whatever its creator's own: its keys' rate limits follow at once."),
    ),
    billing_status: z.optional(
      describe(
        z.enum(billingStatuses),
        '`unpaid`: requests in the workspace answer 402 PAYMENT_REQUIRED, but for reading, listing and deleting workspaces and the account; `paid` lifts it.',
      ),
    ),
  })
  .check(z.refine((body) => body.tier !== undefined || body.billing_status !== undefined, 'must give tier or billing_status'));

export const adminWorkspace = withMeta(
  z.extend(workspace, {
    suspended_at: z.nullable(timestamp),
    suspended_reason: z.nullable(z.string()),
    billing_status: z.enum(billingStatuses),
    unpaid_since: z.nullable(timestamp),
  }),
  { id: 'AdminWorkspace', description: 'A workspace with its suspension and billing status, as platform admins see it.' },
);
