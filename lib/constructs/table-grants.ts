import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { TableAccess } from '#core/adapters/function-definition';

/**
 * Grants what a function's definition declares it does on the table (its `tableAccess`) and
 * nothing more: the actions on the table's ARN, and Query on `<table ARN>/index/<name>` for
 * each index it reads by name, never `index/*`. In place of `grantReadWriteData`, which gives
 * every function Scan on the whole multi-tenant table and the stream's actions.
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
