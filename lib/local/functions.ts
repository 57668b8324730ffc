import type { Deps } from '#core/deps';
import { createFunction } from '#core/http/pipeline';
import type { HandlersFor } from '#core/http/types';
import { lambdaFunctions, type LambdaFunctionName } from '#core/route-types';
import { routes, type AppRoute } from '#routes';
import { adminHandlers } from '../../functions/admin/handlers.ts';
import { apiKeyHandlers } from '../../functions/api-keys/handlers.ts';
import { authorize } from '../../functions/authorizer/authorize.ts';
import { handler as fallback } from '../../functions/fallback/index.ts';
import { oauthHandlers } from '../../functions/oauth/handlers.ts';
import { sessionHandlers } from '../../functions/sessions/handlers.ts';
import { userHandlers } from '../../functions/users/handlers.ts';
import { workspaceHandlers } from '../../functions/workspaces/handlers.ts';
import type { LocalFunctions, ProxyHandler } from './gateway.ts';

const handlerSets: { [F in LambdaFunctionName]: HandlersFor<AppRoute, F> } = {
  workspaces: workspaceHandlers,
  'api-keys': apiKeyHandlers,
  users: userHandlers,
  sessions: sessionHandlers,
  admin: adminHandlers,
  oauth: oauthHandlers,
};

/** The same function code the Lambda bundles hold, wired to the local runner's dependencies. */
export function localFunctions(deps: Deps): LocalFunctions {
  const build = <F extends LambdaFunctionName>(name: F): ProxyHandler =>
    createFunction({ routes, name, handlers: handlerSets[name], deps: () => deps });
  return {
    authorizer: (event) => authorize(deps, event),
    fallback,
    routed: Object.fromEntries(lambdaFunctions.map((name) => [name, build(name)])) as Record<LambdaFunctionName, ProxyHandler>,
  };
}
