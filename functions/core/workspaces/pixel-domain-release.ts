import { eventIn } from '#core/events/origins';
import type { PixelSettings } from '#core/pixel/pixel-settings';
import { claimWrites, holderOf, releaseSite } from '#core/pixel/site-claims';
import { claimedHost } from '#core/pixel/site-hosts';
import { isoNow } from '#core/platform/clock';
import { NotFound } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { workspaceView } from '#core/tenancy/workspace-view';
import { changeWorkspace } from './workspace-changes.ts';

const without = (settings: PixelSettings, host: string): PixelSettings => ({
  ...settings,
  domains: settings.domains.filter((h) => h !== host),
  testDomains: settings.testDomains.filter((h) => h !== host),
});

/**
 * Frees a claimed pixel domain (platform admins: a domain its owner lost, or a dispute):
 * out of its holder's settings and its claim deleted, in one transaction with the
 * workspace's `workspace.updated`. A claim its holder's settings no longer list (its
 * workspace gone in between) is deleted by itself. An unknown host is 404.
 */
export async function releasePixelDomain(deps: Deps, domain: string): Promise<void> {
  const host = claimedHost(domain);
  const site = host && (await holderOf(deps, host));
  if (!host || !site) throw new NotFound('pixel domain', domain);
  const { workspaceId } = site;
  try {
    await changeWorkspace(deps, workspaceId, async (current) => {
      const before = current.settings.pixel;
      // Not listed (an interrupted change left the claim): only the claim goes, below.
      if (!before || ![...before.domains, ...before.testDomains].includes(host)) throw new NotFound('pixel domain', host);
      const pixel = without(before, host);
      return {
        set: { settings: { ...current.settings, pixel }, updatedAt: isoNow(deps.clock) },
        events: (after) => [eventIn(workspaceId, undefined, 'workspace.updated', workspaceView(after))],
        claims: await claimWrites(deps, workspaceId, before, pixel),
      };
    });
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
  }
  await releaseSite(deps, workspaceId, host);
}
