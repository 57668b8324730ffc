import type { RouteSpec } from '#core/http/route-types';
import type { ApiRequest } from '#core/http/types';
import { namedNamespace, resolveNamespace } from '#core/namespaces/access';
import { entitlementScopeOf, ownerTierOf } from '#core/namespaces/scope';
import { workspaceScopeById } from '#core/namespaces/workspace-scope';
import type { Deps } from '#core/ports/deps';

type CredentialRequest = ApiRequest<RouteSpec & { auth: 'credential' }>;

/**
 * The entitlement scope a request acts in: the namespace it names (X-Namespace-ID or
 * `namespace_id`; 403 NAMESPACE_ACCESS_DENIED for one the credential may not use), else
 * its workspace's default namespace; in the credential's environment.
 */
export async function requestScope(deps: Deps, request: CredentialRequest) {
  const namespace = await resolveNamespace(deps, request.principal, request.workspaceId, namedNamespace(request));
  return entitlementScopeOf(namespace, request.principal.environment, await ownerTierOf(deps, namespace));
}

/** The acting workspace's own scope (GET /usage reports the workspace's requests, whatever namespace is named). */
export const workspaceRequestScope = (deps: Deps, request: CredentialRequest) =>
  workspaceScopeById(deps, request.workspaceId, request.principal.environment);
