import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
} from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { isConditionFailure } from '#core/store/conditions';
import type { Database } from '#core/store/database';
import type { IdempotencyRecordItem } from '#core/store/items';

/** How long a request may be running before its in-progress record counts as abandoned: the function's timeout. */
export const inProgressMs = 30_000;

const toRecord = (item: IdempotencyRecordItem) =>
  new IdempotencyRecord({
    idempotencyKey: item.key,
    status: item.status,
    expiryTimestamp: item.expiresAt,
    inProgressExpiryTimestamp: item.inProgressUntil,
    payloadHash: item.payloadHash,
    responseData: item.response === undefined ? undefined : JSON.parse(item.response),
  });

/** Absent to the code: past its 24 hours, or in progress past the time its request could take. */
const isAbsent = (item: IdempotencyRecordItem, nowMs: number) =>
  item.expiresAt * 1000 <= nowMs || (item.status === 'INPROGRESS' && (item.inProgressUntil ?? 0) <= nowMs);

/**
 * Powertools' persistence on our single table (store/entities/idempotency-record.ts), one
 * partition per record. A record past its expiry is treated as absent and may be written
 * over, never left waiting for TTL; so is an in-progress record whose request must have
 * died (Powertools itself compares that expiry against the wrong clock field).
 */
export class TablePersistenceLayer extends BasePersistenceLayer {
  constructor(private readonly db: Database) {
    super();
  }

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { data } = await this.db.entities.idempotencyRecord.get({ key: idempotencyKey }).go({ consistent: true });
    if (!data || isAbsent(data, Date.now())) throw new IdempotencyItemNotFoundError(`No idempotency record for ${idempotencyKey}`);
    return toRecord(data);
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const nowMs = Date.now();
    try {
      await this.db.entities.idempotencyRecord
        .put({
          key: record.idempotencyKey,
          status: 'INPROGRESS',
          expiresAt: record.expiryTimestamp!,
          inProgressUntil: record.inProgressExpiryTimestamp ?? nowMs + inProgressMs,
          payloadHash: record.payloadHash,
          ttl: record.expiryTimestamp!,
        })
        .where(
          (attr, op) =>
            `${op.notExists(attr.key)} OR ${op.lte(attr.expiresAt, Math.floor(nowMs / 1000))} OR ` +
            `(${op.eq(attr.status, 'INPROGRESS')} AND ${op.lte(attr.inProgressUntil, nowMs)})`,
        )
        .go();
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const { data } = await this.db.entities.idempotencyRecord.get({ key: record.idempotencyKey }).go({ consistent: true });
      throw new IdempotencyItemAlreadyExistsError(
        `An idempotency record exists for ${record.idempotencyKey}`,
        data && !isAbsent(data, nowMs) ? toRecord(data) : undefined,
      );
    }
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    await this.db.entities.idempotencyRecord
      .patch({ key: record.idempotencyKey })
      .set({
        status: record.getStatus() === IdempotencyRecordStatus.COMPLETED ? 'COMPLETED' : 'INPROGRESS',
        expiresAt: record.expiryTimestamp!,
        ttl: record.expiryTimestamp!,
        response: JSON.stringify(record.getResponse()),
      })
      .go();
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    await this.db.entities.idempotencyRecord.delete({ key: record.idempotencyKey }).go();
  }
}
