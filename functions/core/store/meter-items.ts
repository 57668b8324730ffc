import type { Environment } from '#core/platform/environments';

/**
 * The usage meter's items, a few shards per workspace, environment and month: one UpdateItem
 * per request moves the month's `calls`, the day's `d:<DD>` and the subject's window, so that
 * metering costs no call beyond the rate limiter's. Written with the table's own client, as
 * ElectroDB cannot name per-subject attributes.
 *
 * | access pattern            | index | pk                                          | sk            |
 * |---------------------------|-------|---------------------------------------------|---------------|
 * | one shard                 | table | METER#<workspaceId>#<environment>#<month>   | SHARD#<n>     |
 * | a month of a workspace    | table | METER#<workspaceId>#<environment>#<month>   | (Query)       |
 */
export const meterPartition = (workspaceId: string, environment: Environment, month: string) =>
  `METER#${workspaceId}#${environment}#${month}`;

export const meterKey = (workspaceId: string, environment: Environment, month: string, shard: number) => ({
  pk: meterPartition(workspaceId, environment, month),
  sk: `SHARD#${shard}`,
});

/** A subject's window and month total (`w:<subject>`): `s` the window's start, `n` the requests in it, `t` the month's total. */
export interface SubjectWindow {
  s: number;
  n: number;
  t: number;
}

export const windowAttribute = (subject: string) => `w:${subject}`;
export const dayAttribute = (date: Date) => `d:${String(date.getUTCDate()).padStart(2, '0')}`;

export interface MeterItem {
  calls?: number;
  [attribute: string]: unknown;
}
