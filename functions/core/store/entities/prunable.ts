/**
 * What an entity that expires adds: `prunableAt`, and the sparse gsi2 index the pruning job
 * (operations/pruning.ts) reads finished items from.
 *
 * | access pattern             | index | pk              | sk            |
 * |----------------------------|-------|-----------------|---------------|
 * | finished items of a kind   | gsi2  | PRUNE#<entity>  | <prunableAt>  |
 *
 * ElectroDB writes an index's keys on an update only when it sets one of their composite
 * attributes, so the partition has one, `pruneBucket`, derived from `prunableAt`.
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
