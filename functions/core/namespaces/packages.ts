import type * as z from 'zod/mini';
import { activePackages, type PackageGrant } from '#core/entitlements/limits';
import { eventIn, personalEvents } from '#core/events/origins';
import { commitWithEvents, type NewEvent } from '#core/events/outbox';
import { NotFound, StateConflict, ValidationFailed } from '#core/platform/errors';
import { newId } from '#core/platform/ids';
import type { Deps } from '#core/ports/deps';
import { changeAsRead } from '#core/store/change-as-read';
import type { NamespaceItem } from '#core/store/items';
import type { grantedPackage } from './namespace-schemas.ts';
import { namespaceWithPackagesView, packageView } from './view.ts';

/** Packages live on the namespace item and are read with it on every request: a bounded few. */
export const maxPackagesInForce = 20;

export interface NewPackage {
  name: string;
  entitlements: PackageGrant['entitlements'];
  expiresAt?: string;
}

async function loadNamespace(deps: Deps, id: string): Promise<NamespaceItem> {
  const { data } = await deps.db.entities.namespace.get({ id }).go({ consistent: true });
  if (!data) throw new NotFound('namespace', id);
  return data;
}

/**
 * Replaces a namespace's packages with what `change` makes of the ones in force (expired
 * packages are dropped on the way), on the condition that nobody changed them since they
 * were read, with its `namespace.updated` event: the namespace with the packages now in force.
 */
function changePackages<T>(
  deps: Deps,
  namespaceId: string,
  change: (inForce: PackageGrant[], now: Date) => { packages: PackageGrant[]; result: T },
) {
  return changeAsRead(async () => {
    const current = await loadNamespace(deps, namespaceId);
    const now = deps.clock.now();
    const { packages, result } = change(activePackages(current.packages, now), now);
    const updated = { ...current, packages, updatedAt: now.toISOString() };
    const events = await namespaceEvents(deps, updated, namespaceWithPackagesView(updated, now));
    await commitWithEvents(deps, events, ({ namespace }) => [
      namespace
        .patch({ id: namespaceId })
        .set({ packages, updatedAt: updated.updatedAt })
        .where((attr, op) => op.eq(attr.packages, current.packages))
        .commit(),
    ]);
    return result;
  }, "The namespace's packages are being changed by others; try again.");
}

/**
 * A namespace's event goes to its workspace, or for a user's own namespace to the user's
 * personal workspace; packages are a platform admin's doing, so `live`.
 */
async function namespaceEvents(deps: Deps, namespace: NamespaceItem, data: object): Promise<NewEvent[]> {
  if (namespace.workspaceId) return [eventIn(namespace.workspaceId, undefined, 'namespace.updated', data)];
  const { data: owner } = await deps.db.entities.user.get({ id: Number(namespace.ownerId) }).go();
  return owner ? personalEvents(owner, undefined, 'namespace.updated', data) : [];
}

/**
 * Grants a package: its entitlements add to the namespace's limits until `expiresAt` (never
 * when absent). At most `maxPackagesInForce` are in force at once (409 beyond).
 */
export async function grantPackage(deps: Deps, namespaceId: string, input: NewPackage): Promise<z.output<typeof grantedPackage>> {
  if (!Object.keys(input.entitlements).length) throw new ValidationFailed({ entitlements: ['must name at least one feature'] });
  return changePackages(deps, namespaceId, (inForce, now) => {
    if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= now.getTime()) {
      throw new ValidationFailed({ expires_at: ['must be in the future'] });
    }
    if (inForce.length >= maxPackagesInForce) {
      throw new StateConflict(
        `A namespace holds at most ${maxPackagesInForce} packages in force; revoke one first.`,
        `${inForce.length}_packages`,
        'grant',
      );
    }
    const grant: PackageGrant = {
      id: newId('package', now),
      name: input.name,
      entitlements: input.entitlements,
      ...(input.expiresAt !== undefined ? { expiresAt: new Date(input.expiresAt).toISOString() } : {}),
      grantedAt: now.toISOString(),
    };
    return { packages: [...inForce, grant], result: { namespace_id: namespaceId, ...packageView(grant) } };
  });
}

/** Revokes a package at once; an expired one is absent already (404), as an unknown one. */
export async function revokePackage(deps: Deps, namespaceId: string, packageId: string): Promise<void> {
  await changePackages(deps, namespaceId, (inForce) => {
    if (!inForce.some((grant) => grant.id === packageId)) throw new NotFound('package', packageId);
    return { packages: inForce.filter((grant) => grant.id !== packageId), result: undefined };
  });
}
