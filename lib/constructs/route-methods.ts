import { Validations } from 'aws-cdk-lib';
import { AuthorizationType, type IAuthorizer, type IResource, LambdaIntegration, type Method } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { routePath } from '#core/http/route-types';
import type { AppRoute, LambdaFunctionName } from '#routes';
import { type UnmatchedSettings, unmatchedIntegration, unmatchedMethodResponses, unmatchedResourcesOf } from './unmatched-answers.ts';

export interface RouteTargets {
  routeFunctions: Record<LambdaFunctionName, IFunction>;
  authorizer: IAuthorizer;
  /** What the answers API Gateway gives itself (404, 405, preflights) depend on. */
  unmatched: UnmatchedSettings;
}

// One permission per function for the whole API: per-method permissions would grow each
// function's resource policy towards its 20 KB limit as the route table grows.
const integrationOf = (fn: IFunction) => new LambdaIntegration(fn, { scopePermissionToMethod: false });

function acknowledgeNoCredential(method: Method, why: string): void {
  Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason: why }, { id: 'AwsSolutions-COG4', reason: why });
}

/**
 * Adds every route's method, and API Gateway's own answer (a MOCK) as `ANY` on each resource
 * and `{proxy+}` at the root, so a wrong method is 405 and an unknown path 404 without a
 * Lambda.
 */
export function addRouteMethods(root: IResource, prefix: string, routes: readonly AppRoute[], targets: RouteTargets): void {
  const integrations = new Map<IFunction, LambdaIntegration>();
  const integrate = (fn: IFunction) => integrations.get(fn) ?? integrations.set(fn, integrationOf(fn)).get(fn)!;

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
  }

  for (const unmatched of unmatchedResourcesOf(prefix, routes)) {
    const resource = unmatched.template === '/' ? root : root.resourceForPath(unmatched.template.slice(1));
    const method = resource.addMethod('ANY', unmatchedIntegration(unmatched, targets.unmatched), {
      authorizationType: AuthorizationType.NONE,
      methodResponses: unmatchedMethodResponses(unmatched),
    });
    acknowledgeNoCredential(
      method,
      'API Gateway itself answers 404, 405 or a CORS preflight here (MOCK): no function runs, no data is read.',
    );
  }
}
