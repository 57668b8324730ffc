import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { tableDesign } from '#core/store/table';

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

export interface DataTableProps {
  /** The customer-managed key (constructs/encryption-key.ts); unset, DynamoDB's AWS managed key. */
  encryptionKey?: IKey;
  /** On-demand caps in request units a second, for the table and for each index alike (CDK context); unset, none. */
  maxReadRequestUnits?: number;
  maxWriteRequestUnits?: number;
}

/**
 * The single table, from the same `tableDesign` as the local runner's: it holds every tenant's
 * data, so it is retained, protected from deletion and recoverable, and its stream carries keys
 * only.
 */
export class DataTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: DataTableProps = {}) {
    super(scope, id);
    const caps = { maxReadRequestUnits: props.maxReadRequestUnits, maxWriteRequestUnits: props.maxWriteRequestUnits };
    this.table = new Table(this, 'Table', {
      partitionKey: stringKey(tableDesign.partitionKey),
      sortKey: stringKey(tableDesign.sortKey),
      timeToLiveAttribute: tableDesign.timeToLiveAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      ...caps,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      ...(props.encryptionKey
        ? { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey: props.encryptionKey }
        : { encryption: TableEncryption.AWS_MANAGED }),
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      stream: StreamViewType.KEYS_ONLY,
    });
    for (const index of tableDesign.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: ProjectionType.ALL,
        ...caps,
      });
    }
  }
}
