import { z } from 'zod';
import { idPattern } from '#core/ids';
import { tierNames } from '#core/tiers';
import { resourceName, timestamp } from './common.ts';

export const workspaceId = z.string().regex(idPattern('workspace'), 'must be a workspace id (wks_...)');

const timezone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be an IANA time zone, e.g. Europe/Berlin' },
);

const locale = z.string().regex(/^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?$/, 'must be a locale such as en or en-US');

export const workspaceSettings = z
  .object({ timezone, locale })
  .meta({ id: 'WorkspaceSettings', description: 'Defaults: timezone UTC, locale en.' });

export const slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase letters, digits and single hyphens');

export const createWorkspaceBody = z.strictObject({
  name: resourceName,
  slug: slug.optional(),
  tier: z.enum(tierNames).optional(),
  settings: workspaceSettings.partial().strict().optional(),
});

export const updateWorkspaceBody = z
  .strictObject({
    name: resourceName.optional(),
    settings: workspaceSettings.partial().strict().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one of name, settings' });

export const workspaceSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    tier: z.enum(tierNames),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'WorkspaceSummary', description: 'A workspace as lists show it.' });

export const workspace = workspaceSummary
  .extend({ settings: workspaceSettings })
  .meta({ id: 'Workspace', description: 'A workspace: the tenant every resource belongs to.' });
