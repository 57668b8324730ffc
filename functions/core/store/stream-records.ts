/**
 * ElectroDB names each item's entity in this attribute; a table stream's images carry it
 * too, so that the stack's event source filter and the fan-out tell events from other items.
 */
export const entityAttribute = '__edb_e__';

/** A table stream's record, as much of it as is read here. */
interface StreamRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, { S?: string }> };
}

/** The ids of the items of `entity` that a stream batch inserted. */
export const insertedIdsOf = (records: readonly StreamRecord[], entity: string): string[] =>
  records.flatMap((record) => {
    const image = record.dynamodb?.NewImage;
    const id = record.eventName === 'INSERT' && image?.[entityAttribute]?.S === entity ? image.id?.S : undefined;
    return id ? [id] : [];
  });
