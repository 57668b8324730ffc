/**
 * What a write removes when an item's due work is done, to leave the due index: naming
 * `dueBucket` beside `dueAt` makes ElectroDB remove `gsi2pk` as well as `gsi2sk`, which `dueAt`
 * alone would leave behind on the item (checked against DynamoDB Local).
 */
export const leavesDueIndex = ['dueAt', 'dueBucket'] as const;
