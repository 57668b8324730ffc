import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tableDesign } from '#core/store/table';

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

/**
 * The single table, shaped by `tableDesign` so that it matches the table the local runner
 * creates. It holds every tenant's data: it survives the stack and can be restored. Its
 * stream carries each new item to the webhook fan-out (constructs/webhooks.ts), which
 * reads only the new image of an inserted event.
 */
export class DataTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: stringKey(tableDesign.partitionKey),
      sortKey: stringKey(tableDesign.sortKey),
      timeToLiveAttribute: tableDesign.timeToLiveAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
      stream: StreamViewType.NEW_IMAGE,
    });
    for (const index of tableDesign.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }
  }
}
