import { GatewayResponse, ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { gatewayResponses } from '#core/http/gateway-responses';
import { errorEnvelope } from '#core/platform/error-envelope';

// API Gateway fills these in when it renders the template.
const placeholders = { requestId: '$context.requestId', timestamp: '$context.requestTime' };

// The catch-all types cover many statuses (403, 404, 429, 502 ...): overriding their status
// would turn all of them into one.
const keepsOriginalStatus = new Set(['DEFAULT_4XX', 'DEFAULT_5XX']);

export interface ApiGatewayResponsesProps {
  api: RestApi;
  /** CORS_ALLOWED_ORIGINS, as the functions get it. */
  corsAllowedOrigins: string;
}

/**
 * A gateway response cannot pick its CORS grant by the request's Origin, so it carries one only
 * where a single value fits (one origin, or `*`).
 */
function corsGrant(corsAllowedOrigins: string): Record<string, string> {
  const origins = corsAllowedOrigins
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  if (origins.length !== 1) return {};
  return { 'Access-Control-Allow-Origin': `'${origins[0]}'`, Vary: "'Origin'" };
}

/** What API Gateway answers on its own (no credential, throttled, timeout ...), in our envelope. */
export class ApiGatewayResponses extends Construct {
  constructor(scope: Construct, id: string, props: ApiGatewayResponsesProps) {
    super(scope, id);
    for (const { type, error } of gatewayResponses) {
      new GatewayResponse(this, type, {
        restApi: props.api,
        type: ResponseType.of(type),
        statusCode: keepsOriginalStatus.has(type) ? undefined : String(error.status),
        // Static header values are quoted in API Gateway's mapping syntax.
        responseHeaders: {
          'X-Request-ID': 'context.requestId',
          ...corsGrant(props.corsAllowedOrigins),
          ...Object.fromEntries(Object.entries(error.headers).map(([name, value]) => [name, `'${value}'`])),
        },
        templates: { 'application/json': JSON.stringify(errorEnvelope(error, placeholders)) },
      });
    }
  }
}
