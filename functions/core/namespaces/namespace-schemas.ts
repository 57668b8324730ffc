import * as z from 'zod/mini';
import { standings } from '#core/entitlements/entitlement-schemas';
import { type Feature, featureNames } from '#core/entitlements/features';
import { idOf, resourceName, timestamp } from '#core/platform/common-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';

export const namespaceId = idOf('namespace', 'a namespace id');
export const packageId = idOf('package', 'a package id');

export const namespace = withMeta(
  z.object({
    id: z.string(),
    uuid: z.uuid(),
    name: z.string(),
    slug: z.string(),
    owner_type: z.enum(['User', 'Workspace']),
    owner_id: describe(
      z.union([z.int(), z.string()]),
      "The user's id (an integer) for a user's namespace; the workspace's id for a workspace's.",
    ),
    workspace_id: describe(z.nullable(z.string()), "The workspace of a workspace's namespace; null for a user's own."),
    is_default: z.boolean(),
    is_active: describe(z.boolean(), 'An inactive namespace cannot be acted in: naming it answers 403 NAMESPACE_ACCESS_DENIED.'),
    created_at: timestamp,
  }),
  { id: 'Namespace', description: "A context entitlements are counted and limited in: a workspace's default namespace, or a user's own." },
);

/** At most 10^12 each: with at most 20 packages, a limit stays a number held exactly. */
const amount = z.int().check(z.gte(1, 'must be a positive integer'), z.lte(1e12, 'must be at most 1000000000000'));

/** What a package adds, per feature: any of the catalogue's, and nothing else. */
const packageEntitlements = z.strictObject(
  Object.fromEntries(featureNames.map((feature) => [feature, z.optional(amount)])) as Record<Feature, z.ZodMiniOptional<typeof amount>>,
);

export const namespacePackage = withMeta(
  z.object({
    id: z.string(),
    name: z.string(),
    entitlements: describe(packageEntitlements, 'What the package adds to the limit of each feature it names.'),
    expires_at: describe(z.nullable(timestamp), 'When the package stops counting; null: never.'),
    granted_at: timestamp,
  }),
  { id: 'NamespacePackage', description: 'A bundle of extra entitlements, granted by a platform admin.' },
);

export const namespaceWithPackages = withMeta(
  z.extend(namespace, { packages: describe(z.array(namespacePackage), 'The packages in force.') }),
  { id: 'NamespaceWithPackages', description: 'A namespace with the packages now in force.' },
);

export const namespaceDetail = withMeta(
  z.extend(namespace, {
    packages: describe(z.array(namespacePackage), 'The packages in force; expired ones are absent.'),
    entitlements: describe(
      standings,
      "Every feature the namespace counts, in the credential's environment: used, limit (tier plus packages), unit, reset_at.",
    ),
  }),
  { id: 'NamespaceDetail' },
);

export const grantPackageBody = z.strictObject({
  name: resourceName,
  entitlements: describe(packageEntitlements, `Positive amounts to add, by feature: ${featureNames.join(', ')}; at least one.`),
  expires_at: describe(
    z.optional(z.nullable(z.iso.datetime({ offset: true }))),
    'When the package stops counting (ISO 8601, in the future); absent or null: never.',
  ),
});

export const grantedPackage = withMeta(z.extend(namespacePackage, { namespace_id: z.string() }), { id: 'GrantedPackage' });
