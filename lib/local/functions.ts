import type { Deps } from '#core/deps';
import { createFunction } from '#core/http/pipeline';
import { routeTables, type LambdaFunctionName } from '#routes';
import { adminHandlers } from '../../functions/admin/handlers.ts';
import { apiKeyHandlers } from '../../functions/api-keys/handlers.ts';
import { authorize } from '../../functions/authorizer/authorize.ts';
import { handler as fallback } from '../../functions/fallback/index.ts';
import { oauthHandlers } from '../../functions/oauth/handlers.ts';
import { sessionHandlers } from '../../functions/sessions/handlers.ts';
import { userHandlers } from '../../functions/users/handlers.ts';
import { workspaceHandlers } from '../../functions/workspaces/handlers.ts';
import type { LocalFunctions, ProxyHandler } from './gateway.ts';

/** The same function code the Lambda bundles hold, wired to the local runner's dependencies. */
export function localFunctions(deps: Deps): LocalFunctions {
  const using = () => deps;
  // `satisfies` makes a function of the registry without handlers here a compile error.
  const routed = {
    workspaces: createFunction({ routes: routeTables.workspaces, handlers: workspaceHandlers, deps: using }),
    'api-keys': createFunction({ routes: routeTables['api-keys'], handlers: apiKeyHandlers, deps: using }),
    users: createFunction({ routes: routeTables.users, handlers: userHandlers, deps: using }),
    sessions: createFunction({ routes: routeTables.sessions, handlers: sessionHandlers, deps: using }),
    admin: createFunction({ routes: routeTables.admin, handlers: adminHandlers, deps: using }),
    oauth: createFunction({ routes: routeTables.oauth, handlers: oauthHandlers, deps: using }),
  } satisfies Record<LambdaFunctionName, ProxyHandler>;
  return {
    authorizer: (event) => authorize(deps, event),
    fallback,
    routed,
  };
}
