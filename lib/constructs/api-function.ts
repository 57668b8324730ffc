import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { FunctionDefinition } from '#core/adapters/function-definition';
import { entryOf, type FunctionName, nodejsBundling, projectRoot } from '#lib/bundling';
import { addEnvironment, environmentOf, type FunctionEnvironment } from './function-environment.ts';
import { grantTableAccess } from './table-grants.ts';

export interface ApiFunctionProps {
  /** What the function's folder declares: its name, memory and timeout (functions/<name>/definition.ts). */
  definition: FunctionDefinition & { name: FunctionName };
  /** Where the routes live, e.g. `/api/v1`: functions match `event.resource` against it. */
  apiPrefix: string;
  /** In place of the definition's, where the deployment decides it (the webhook worker's follows the delivery timeout). */
  timeout?: Duration;
  /** Further settings of the function's configuration. */
  environment?: FunctionEnvironment;
  /** How long its log group keeps its logs (context `logRetentionDays`). */
  logRetention: RetentionDays;
  /** The customer-managed key of its log group (constructs/encryption-key.ts); unset, CloudWatch Logs' own. */
  encryptionKey?: IKey;
  /** Concurrency kept for it alone, out of the account's unreserved pool; unset, it shares the pool. */
  reservedConcurrency?: number;
}

/** One bundle of functions/ as a Lambda, with the defaults every function shares. */
export class ApiFunction extends Construct {
  readonly function: NodejsFunction;
  private readonly definition: FunctionDefinition;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { definition } = props;
    this.definition = definition;
    const logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, encryptionKey: props.encryptionKey });
    // Our own role instead of AWSLambdaBasicExecutionRole: it may write to this log group only.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: entryOf(definition.name),
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: definition.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(definition.timeoutSeconds ?? 10),
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      tracing: Tracing.ACTIVE,
      reservedConcurrentExecutions: props.reservedConcurrency,
      environment: environmentOf({ API_PREFIX: props.apiPrefix, ...props.environment }),
      bundling: nodejsBundling(definition.name),
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

  /** Tells the function which table to use and lets it do there only what its definition declares (table-grants.ts). */
  bindTable(table: ITable): this {
    const { definition } = this;
    if (!definition.tableAccess) throw new Error(`${definition.name} uses the table but its definition declares no tableAccess`);
    addEnvironment(this.function, { TABLE_NAME: table.tableName });
    grantTableAccess(this.function, table, definition.tableAccess);
    return this;
  }
}
