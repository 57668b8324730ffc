import { environments } from '../auth/api-key-format.ts';
import type { Deps } from '../deps.ts';
import { collections, forgetCount } from '../store/list-counts.ts';
import { endpointKey } from './endpoint-view.ts';

/**
 * Removes every endpoint of a workspace being deleted, in both environments, with their
 * list counts (its usage counters go with the workspace's). No events: nobody is left to
 * receive them. Apart from endpoints.ts so that the workspaces function bundles no URL policy.
 */
export async function forgetWebhookEndpointsOf(deps: Deps, workspaceId: string): Promise<void> {
  const { webhookEndpoint } = deps.db.entities;
  const { data } = await webhookEndpoint.query.byWorkspace({ workspaceId }).go({ pages: 'all' });
  if (data.length) await webhookEndpoint.delete(data.map(endpointKey)).go();
  for (const environment of environments) await forgetCount(deps.db, collections.webhooksOfWorkspace(workspaceId, environment));
}
