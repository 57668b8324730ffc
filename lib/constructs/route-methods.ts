import { Validations } from 'aws-cdk-lib';
import { AuthorizationType, type IAuthorizer, type IResource, LambdaIntegration, type Method } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { routePath } from '#core/http/route-types';
import type { AppRoute, LambdaFunctionName } from '#routes';

export interface RouteTargets {
  routeFunctions: Record<LambdaFunctionName, IFunction>;
  fallbackFunction: IFunction;
  authorizer: IAuthorizer;
}

// One permission per function for the whole API: per-method permissions would grow each
// function's resource policy towards its 20 KB limit as the route table grows.
const integrationOf = (fn: IFunction) => new LambdaIntegration(fn, { scopePermissionToMethod: false });

function withAncestors(resource: IResource): IResource[] {
  const chain: IResource[] = [];
  for (let r: IResource | undefined = resource; r; r = r.parentResource) chain.push(r);
  return chain;
}

function acknowledgeNoCredential(method: Method, why: string): void {
  Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason: why }, { id: 'AwsSolutions-COG4', reason: why });
}

/**
 * Adds a method for every route at its path (under the prefix unless mounted at the root), then the fallback function as `ANY` on every
 * resource on the way (so a wrong method answers 405 with Allow, and a bare prefix 404) and
 * as `{proxy+}` at the root (so an unknown path answers 404 in our envelope).
 */
export function addRouteMethods(root: IResource, prefix: string, routes: readonly AppRoute[], targets: RouteTargets): void {
  const integrations = new Map<IFunction, LambdaIntegration>();
  const integrate = (fn: IFunction) => integrations.get(fn) ?? integrations.set(fn, integrationOf(fn)).get(fn)!;

  const withRoutes = new Set<IResource>();
  for (const route of routes) {
    const resource = root.resourceForPath(routePath(route, prefix).replace(/^\//, ''));
    const integration = integrate(targets.routeFunctions[route.function]);
    // Every GET also answers HEAD, through the same function (functions/core/http/route-match.ts).
    for (const httpMethod of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) {
      if (route.auth === 'credential') {
        const method = resource.addMethod(httpMethod, integration, {
          authorizer: targets.authorizer,
          authorizationType: AuthorizationType.CUSTOM,
          // The authorizer names the key (its usageIdentifierKey): the usage plans meter every credential request.
          apiKeyRequired: true,
        });
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-COG4',
          reason: 'Callers are API keys and user tokens checked by the Lambda REQUEST authorizer; Cognito does not issue them.',
        });
      } else {
        const method = resource.addMethod(httpMethod, integration, { authorizationType: AuthorizationType.NONE });
        acknowledgeNoCredential(
          method,
          `The route table makes ${route.method} ${route.path} public (auth: none): it is how a credential is obtained.`,
        );
      }
    }
    withRoutes.add(resource);
  }

  const fallback = integrate(targets.fallbackFunction);
  const fallbackOn = new Set([...withRoutes].flatMap(withAncestors));
  fallbackOn.add(root.addResource('{proxy+}'));
  for (const resource of fallbackOn) {
    const method = resource.addMethod('ANY', fallback, { authorizationType: AuthorizationType.NONE });
    acknowledgeNoCredential(method, 'The fallback only answers 404 or 405 and reads no data, so it needs no credential.');
  }
}
