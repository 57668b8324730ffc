import type { Environment } from '#core/platform/environments';

/**
 * The usage meter's items: per workspace, environment and month, a few shards, each
 * holding the month's requests on it (`calls`), per day (`d:<DD>`), and per subject (an API
 * key, or a user's other credentials) the current one-minute window and the month's
 * total (`w:<subject>` = `{ s: window start, n: requests in it, t: month total }`). One
 * UpdateItem per request moves all of them, so metering costs no call beyond the rate
 * limiter's. Written with the table's own client: ElectroDB cannot name per-subject attributes.
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

/** A subject's window and month total. */
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
