import { join } from 'node:path';
import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { entryOf, type FunctionName, nodejsBundling, projectRoot } from '#lib/bundling';

export interface ApiFunctionProps {
  name: FunctionName;
  /** Where the routes live, e.g. `/api/v1`: functions match `event.resource` against it. */
  apiPrefix: string;
  /** Lambda gives CPU in proportion to memory; 1,769 MB is one full vCPU. */
  memorySize?: number;
  /** 10 seconds unless given: long enough for any request. */
  timeout?: Duration;
  /** Further settings of functions/core/platform/config.ts, by variable name. */
  environment?: Record<string, string>;
}

/** One bundle of functions/ as a Lambda, with the defaults every function shares. */
export class ApiFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    // Our own role instead of AWSLambdaBasicExecutionRole: it may write to this log group only.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: entryOf(props.name),
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(10),
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      tracing: Tracing.ACTIVE,
      environment: { API_PREFIX: props.apiPrefix, ...props.environment },
      bundling: nodejsBundling(props.name),
    });

    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-L1',
        reason: 'Node.js 22 is pinned together with the esbuild target in lib/bundling.ts; moving to 24 is one deliberate change of both.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which have no resource-level permissions.',
      },
    );
  }

  /** Tells the function which table to use and lets it do only what it needs there. */
  bindTable(table: ITable, access: 'read' | 'read-write'): this {
    this.function.addEnvironment('TABLE_NAME', table.tableName);
    if (access === 'read') table.grantReadData(this.function);
    else table.grantReadWriteData(this.function);
    const tableId = Stack.of(table).getLogicalId(table.node.defaultChild as CfnElement);
    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
      reason: "The wildcard covers only this table's own global indexes (tableDesign.globalIndexes), which the queries use.",
    });
    return this;
  }
}
