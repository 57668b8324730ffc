import type { Environment } from '#core/platform/environments';
import { DuplicateResource } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { ignoreConditionFailure } from '#core/store/conditions';
import type { Database } from '#core/store/database';
import type { PixelSettings } from './pixel-settings.ts';

type WriteTransaction = Parameters<Database['transaction']['write']>[0];
type TransactionEntities = Parameters<WriteTransaction>[0];
export type ClaimWrites = (entities: TransactionEntities) => ReturnType<WriteTransaction>;

/** Each claimed host with the environment it reports into. */
function sitesOf(settings: PixelSettings | undefined): Map<string, Environment> {
  const sites = new Map<string, Environment>();
  for (const host of settings?.domains ?? []) sites.set(host, 'live');
  for (const host of settings?.testDomains ?? []) sites.set(host, 'test');
  return sites;
}

/** A site record: the host's owner and a copy of the settings the tracker obeys (entities/pixel-site.ts). */
const siteOf = (host: string, workspaceId: string, environment: Environment, settings: PixelSettings) => ({
  host,
  workspaceId,
  environment,
  enabled: settings.enabled,
  ...settings.features,
  sampleRate: settings.sampleRate,
});

/** A domain another workspace holds: 409 naming where the request lists it (its own host; the holder is never named). */
function claimedElsewhere(after: PixelSettings, host: string): DuplicateResource {
  const [list, hosts] = after.domains?.includes(host) ? ['domains', after.domains] : ['test_domains', after.testDomains ?? []];
  return new DuplicateResource(
    'pixel domain',
    `settings.pixel.${list}.${hosts.indexOf(host)}`,
    undefined,
    `${host} is tracked by another workspace: a domain belongs to one workspace and environment at a time.`,
  );
}

/**
 * The claim writes that take a workspace's sites from `before` to `after`, for the settings
 * change's own transaction, each on condition of who holds the host. A host another workspace
 * holds is refused before anything is written, without saying whose; one claimed in the
 * instant since fails the transaction, and the change, read again, is refused here.
 */
export async function claimWrites(
  deps: Deps,
  workspaceId: string,
  before: PixelSettings | undefined,
  after: PixelSettings,
): Promise<ClaimWrites> {
  const was = sitesOf(before);
  const now = sitesOf(after);
  const added = [...now.keys()].filter((host) => !was.has(host));
  const { data: held } = added.length
    ? await deps.db.entities.pixelSite.get(added.map((host) => ({ host }))).go({ consistent: true })
    : { data: [] };
  const ownHeld = new Set<string>();
  for (const site of held) {
    if (site.workspaceId !== workspaceId) throw claimedElsewhere(after, site.host);
    // Left behind by an interrupted change of this workspace: taken over as its own.
    ownHeld.add(site.host);
  }
  return ({ pixelSite }) => [
    ...[...now].map(([host, environment]) => {
      const site = siteOf(host, workspaceId, environment, after);
      return was.has(host) || ownHeld.has(host)
        ? pixelSite
            .put(site)
            .where((attr, op) => op.eq(attr.workspaceId, workspaceId))
            .commit()
        : pixelSite.create(site).commit();
    }),
    ...[...was.keys()]
      .filter((host) => !now.has(host))
      .map((host) =>
        pixelSite
          .delete({ host })
          .where((attr, op) => op.eq(attr.workspaceId, workspaceId))
          .commit(),
      ),
  ];
}

/** Deletes a claim, only while the workspace still holds it. */
export const releaseSite = (deps: Deps, workspaceId: string, host: string): Promise<void> =>
  deps.db.entities.pixelSite
    .delete({ host })
    .where((attr, op) => op.eq(attr.workspaceId, workspaceId))
    .go({ response: 'none' })
    .then(() => undefined, ignoreConditionFailure);

/** Deletes a workspace's claims (its deletion). */
export async function releaseSitesOf(deps: Deps, workspaceId: string, settings: PixelSettings | undefined): Promise<void> {
  for (const host of sitesOf(settings).keys()) await releaseSite(deps, workspaceId, host);
}

/** Who holds a host: its workspace and environment, or undefined. */
export async function holderOf(deps: Deps, host: string) {
  const { data } = await deps.db.entities.pixelSite.get({ host }).go({ consistent: true });
  return data ?? undefined;
}
