/**
 * What an entity that expires adds to its schema: `prunableAt`, and the sparse gsi2 index
 * over it from which the pruning job (operations/pruning.ts) reads what is finished.
 *
 * | access pattern             | index | pk              | sk            |
 * |----------------------------|-------|-----------------|---------------|
 * | finished items of a kind   | gsi2  | PRUNE#<entity>  | <prunableAt>  |
 *
 * ElectroDB writes an index's keys on an update only when the update sets one of the
 * index's composite attributes, so a partition key without any would never be written by a
 * patch. The partition therefore has one, `pruneBucket`, which ElectroDB derives from
 * `prunableAt` (watch): a write that sets `prunableAt` writes both gsi2 keys, and an item
 * that never had it stays out of the index.
 */
export function prunableAttributes<const E extends string, const R extends boolean = false>(entity: E, options?: { required: R }) {
  return {
    /** When the pruning job may delete the item (ISO 8601): written whenever `ttl` is. */
    prunableAt: { type: 'string', required: (options?.required ?? false) as R },
    pruneBucket: {
      type: 'string',
      hidden: true,
      watch: ['prunableAt'],
      set: (_: unknown, item: { prunableAt?: string }) => (item.prunableAt === undefined ? undefined : entity),
    },
  } as const;
}

export const prunableIndex = {
  index: 'gsi2',
  pk: { field: 'gsi2pk', composite: ['pruneBucket'], template: 'PRUNE#${pruneBucket}', casing: 'none' },
  sk: { field: 'gsi2sk', composite: ['prunableAt'], template: '${prunableAt}', casing: 'none' },
} as const;
