import * as z from 'zod/mini';
import { pixelSettingsPatch, pixelSettingsView } from '#core/pixel/pixel-settings';
import { idOf, resourceName, timestamp } from '#core/platform/common-schemas';
import { withMeta } from '#core/platform/schema-meta';
import { tierNames } from '#core/platform/tiers';

export const workspaceId = idOf('workspace', 'a workspace id');

const timezone = z.string().check(
  z.refine(
    (tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an IANA time zone, e.g. Europe/Berlin' },
  ),
);

const locale = z.string().check(z.regex(/^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?$/, 'must be a locale such as en or en-US'));

const workspaceSettings = withMeta(z.object({ timezone, locale, pixel: pixelSettingsView }), {
  id: 'WorkspaceSettings',
  description: 'Defaults: timezone UTC, locale en, pixel tracking disabled.',
});

/** The settings a create or update may send: any of them, `pixel` field by field, and nothing else. */
const settingsPatch = z.strictObject({ timezone: z.optional(timezone), locale: z.optional(locale), pixel: z.optional(pixelSettingsPatch) });

const slug = z
  .string()
  .check(z.minLength(1), z.maxLength(64), z.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase letters, digits and single hyphens'));

export const createWorkspaceBody = z.strictObject({
  name: resourceName,
  slug: z.optional(slug),
  tier: z.optional(z.enum(tierNames)),
  settings: z.optional(settingsPatch),
});

export const updateWorkspaceBody = z
  .strictObject({
    name: z.optional(resourceName),
    settings: z.optional(settingsPatch),
  })
  .check(z.refine((body) => Object.keys(body).length > 0, { message: 'send at least one of name, settings' }));

export const workspaceSummary = withMeta(
  z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    tier: z.enum(tierNames),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  { id: 'WorkspaceSummary', description: 'A workspace as lists show it.' },
);

export const workspace = withMeta(z.extend(workspaceSummary, { settings: workspaceSettings }), {
  id: 'Workspace',
  description: 'A workspace: the tenant every resource belongs to.',
});
