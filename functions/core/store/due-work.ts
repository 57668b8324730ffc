/**
 * What an item's write removes when its due work is done (an event fanned out, a delivery
 * ended), so that it leaves the sparse due index (entities/due.ts). Naming `dueBucket`
 * beside `dueAt` makes ElectroDB remove both index keys, `gsi2pk` and `gsi2sk`; removing
 * `dueAt` alone removes only `gsi2sk` (enough for DynamoDB to drop the index entry, but it
 * leaves `dueBucket` and `gsi2pk` behind on the item). Checked against DynamoDB Local.
 */
export const leavesDueIndex = ['dueAt', 'dueBucket'] as const;
