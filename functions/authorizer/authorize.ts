import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import type { Principal } from '#core/access/principal';
import { authenticate } from '#core/credentials/authenticate';
import { encodeVerdict } from '#core/http/authorizer-context';
import { headerValue } from '#core/http/proxy-event';
import { meterRequest } from '#core/metering/usage-meter';
import { ApiError, ServiceUnavailable } from '#core/platform/errors';
import { isUnavailable } from '#core/platform/unavailable';
import type { Deps } from '#core/ports/deps';

/** Every method of the stage: the policy does not depend on the method called. */
const stageArn = (methodArn: string) => `${methodArn.split('/').slice(0, 2).join('/')}/*`;

/**
 * The REQUEST authorizer: checks the credential, meters the request and hands the verdict to
 * the function in the context, since API Gateway could answer a denial only with one fixed
 * body; a table out of reach is a verdict too (503), other faults of ours are thrown (500).
 */
export async function authorize(deps: Deps, event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  let verdict: Principal | ApiError;
  let usageKey: string | undefined;
  try {
    verdict = await authenticate(deps, {
      authorization: headerValue(event, 'authorization'),
      cookie: headerValue(event, 'cookie'),
      xsrfToken: headerValue(event, 'x-xsrf-token'),
      method: event.httpMethod,
      sourceIp: event.requestContext.identity.sourceIp,
      workspaceId: headerValue(event, 'x-workspace-id') || event.queryStringParameters?.workspace_id || undefined,
    });
    usageKey = verdict.usageKey;
    // Metered once the credential is known; over the allowance or the quota the verdict is the 429.
    const metered = {
      ...verdict,
      workspaceId: verdict.meteredWorkspaceId ?? verdict.workspaceId,
      apiCallsLimit: verdict.apiCallsLimit ?? null,
    };
    verdict.rateLimit = (await meterRequest(deps, metered)).rate;
  } catch (error) {
    if (error instanceof ApiError) verdict = error;
    else if (isUnavailable(error)) verdict = new ServiceUnavailable();
    else throw error;
  }
  return {
    principalId: verdict instanceof ApiError ? 'anonymous' : String(verdict.userId),
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageArn(event.methodArn) }],
    },
    // Every credential method requires an API key, which API Gateway takes from here: without one it would
    // answer its own 403, so refused credentials get the anonymous key and reach our 401 (docs/tenancy-and-limits.md, Usage plans at the edge).
    usageIdentifierKey: usageKey ?? deps.gatewayKeys.shared.anonymous,
    context: encodeVerdict(verdict),
  };
}
