import { environments } from '#core/platform/environments';
import type { Deps } from '#core/ports/deps';
import { ignoreConditionFailure } from '#core/store/conditions';
import { collections, forgetCount } from '#core/store/list-counts';
import { endpointKey } from './endpoint-view.ts';

/** How long the endpoints of a deleted workspace outlive it: past the whole retry ladder (26.6 hours). */
const retirementSeconds = 3 * 86_400;
const parallelPatches = 25;

/**
 * Retires every endpoint of a workspace being deleted and forgets their list counts; a retired
 * endpoint stays until its `ttl`, so that `workspace.deleted`, written after this, still
 * reaches it through every attempt. Apart from endpoints.ts so that the workspaces function
 * bundles no URL policy.
 */
export async function retireWebhookEndpointsOf(deps: Deps, workspaceId: string): Promise<void> {
  const { webhookEndpoint } = deps.db.entities;
  const { data } = await webhookEndpoint.query.byWorkspace({ workspaceId }).go({ pages: 'all' });
  const ttl = Math.floor(deps.clock.now().getTime() / 1000) + retirementSeconds;
  for (let i = 0; i < data.length; i += parallelPatches) {
    await Promise.all(
      data
        .slice(i, i + parallelPatches)
        // One made as the delete began may be gone already: its create saw the mark and removed it.
        .map((endpoint) =>
          webhookEndpoint.patch(endpointKey(endpoint)).set({ ttl }).go({ response: 'none' }).catch(ignoreConditionFailure),
        ),
    );
  }
  for (const environment of environments) await forgetCount(deps.db, collections.webhooksOfWorkspace(workspaceId, environment));
}
