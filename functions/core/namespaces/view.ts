import type * as z from 'zod/mini';
import type { standings } from '#core/entitlements/entitlement-schemas';
import { activePackages, type PackageGrant } from '#core/entitlements/limits';
import type { NamespaceItem } from '#core/store/items';
import type { namespace, namespaceDetail, namespacePackage, namespaceWithPackages } from './namespace-schemas.ts';

/**
 * A namespace as the API shows it. `owner_id` is the spec's integer for a user's namespace
 * (the user id); a workspace's namespace is owned by the workspace, whose id is a string.
 */
export function namespaceView(item: NamespaceItem): z.output<typeof namespace> {
  return {
    id: item.id,
    uuid: item.uuid,
    name: item.name,
    slug: item.slug,
    owner_type: item.ownerType,
    owner_id: item.ownerType === 'User' ? Number(item.ownerId) : item.ownerId,
    workspace_id: item.workspaceId ?? null,
    is_default: item.isDefault,
    is_active: item.isActive,
    created_at: item.createdAt,
  };
}

export const packageView = (grant: PackageGrant): z.output<typeof namespacePackage> => ({
  id: grant.id,
  name: grant.name,
  entitlements: grant.entitlements,
  expires_at: grant.expiresAt ?? null,
  granted_at: grant.grantedAt,
});

/** A namespace with its packages in force: what a `namespace.updated` event carries. */
export function namespaceWithPackagesView(item: NamespaceItem, now: Date): z.output<typeof namespaceWithPackages> {
  return { ...namespaceView(item), packages: activePackages(item.packages, now).map(packageView) };
}

/** GET /namespaces/{id}: the namespace with its packages in force (expired ones are absent) and where each feature stands. */
export function namespaceDetailView(
  item: NamespaceItem,
  entitlements: z.output<typeof standings>,
  now: Date,
): z.output<typeof namespaceDetail> {
  return { ...namespaceWithPackagesView(item, now), entitlements };
}
