import { NestedStack, Validations } from 'aws-cdk-lib';
import { AuthorizationType, type IResource, LambdaIntegration, Resource, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { docsFunction } from '../../functions/docs/definition.ts';
import { docsResources } from '../../functions/docs/routes.ts';
import { ApiFunction } from './api-function.ts';
import type { FunctionEnvironment } from './function-environment.ts';

/** What the documentation function may run at once: readers and agents need few. */
export const docsReservedConcurrency = 10;

export interface DocsRoutesProps {
  /** The RestApi and its `/api` resource, which the documentation's paths hang from. */
  restApi: RestApi;
  apiResource: IResource;
  table: ITable;
  apiPrefix: string;
  environment: FunctionEnvironment;
  /** How long the function's log group keeps its logs. */
  logRetention: RetentionDays;
  /** The customer-managed key of the docs function's log group; unset, CloudWatch Logs' own. */
  encryptionKey?: IKey;
}

/**
 * The documentation's function and resources, in a nested stack: the main stack is near
 * CloudFormation's 500 resources, and this part needs nothing from it but the table and the
 * RestApi.
 */
export class DocsRoutes extends NestedStack {
  /** The documentation function, for the alarms. */
  readonly function: IFunction;

  constructor(scope: Construct, id: string, props: DocsRoutesProps) {
    super(scope, id, { description: 'The documentation pages, openapi.json/.yaml and llms.txt' });
    const docs = new ApiFunction(this, 'Docs', {
      definition: docsFunction,
      apiPrefix: props.apiPrefix,
      environment: props.environment,
      logRetention: props.logRetention,
      encryptionKey: props.encryptionKey,
      // Its paths are public: a flood of them (each a large document) may take these and no more of the account's.
      reservedConcurrency: docsReservedConcurrency,
    });
    docs.bindTable(props.table);
    this.function = docs.function;
    const restApi = RestApi.fromRestApiAttributes(this, 'RestApi', {
      restApiId: props.restApi.restApiId,
      rootResourceId: props.restApi.restApiRootResourceId,
    });
    const api = Resource.fromResourceAttributes(this, 'ApiResource', { restApi, resourceId: props.apiResource.resourceId, path: '/api' });
    // One permission for the whole API, as every function has (route-methods.ts).
    const integration = new LambdaIntegration(docs.function, { scopePermissionToMethod: false });
    for (const path of docsResources) {
      const method = api
        .resourceForPath(path.replace(/^api\//, ''))
        .addMethod('ANY', integration, { authorizationType: AuthorizationType.NONE });
      const why =
        'The documentation checks the web session itself: its pages redirect to a login page, the document and llms.txt are public.';
      Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason: why }, { id: 'AwsSolutions-COG4', reason: why });
    }
  }
}
