import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { TableAccess } from '#core/adapters/function-definition';

/**
 * Grants exactly the function's `tableAccess`, Query on the indexes it names and never
 * `index/*`: `grantReadWriteData` would give every function Scan on the whole multi-tenant
 * table.
 */
export function grantTableAccess(grantee: IGrantable, table: ITable, access: TableAccess): void {
  Grant.addToPrincipal({ grantee, actions: access.table.map((action) => `dynamodb:${action}`), resourceArns: [table.tableArn] });
  const indexes = access.indexes ?? [];
  if (indexes.length) {
    Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:Query'],
      resourceArns: indexes.map((index) => `${table.tableArn}/index/${index}`),
    });
  }
  // A table under a customer-managed key: its items are read and written through it.
  table.encryptionKey?.grantEncryptDecrypt(grantee);
}
