/**
 * What an entity with work still to do adds: `dueAt`, and the sparse gsi2 index the sweeper
 * reads overdue work from (shared with prunable.ts: an entity uses one or the other).
 *
 * | access pattern            | index | pk            | sk        |
 * |---------------------------|-------|---------------|-----------|
 * | overdue items of a kind   | gsi2  | DUE#<entity>  | <dueAt>   |
 *
 * As in prunable.ts, the partition key has a composite attribute of its own (`dueBucket`). An
 * item leaves the index by removing both it and `dueAt` (store/due-work.ts): removing `dueAt`
 * alone would remove only `gsi2sk`.
 */
export function dueAttributes<const E extends string>(entity: E) {
  return {
    /** When the item's next step is due (ISO 8601); absent once nothing is left to do. */
    dueAt: { type: 'string' },
    dueBucket: {
      type: 'string',
      hidden: true,
      watch: ['dueAt'],
      set: (_: unknown, item: { dueAt?: string }) => (item.dueAt === undefined ? undefined : entity),
    },
  } as const;
}

export const dueIndex = {
  index: 'gsi2',
  pk: { field: 'gsi2pk', composite: ['dueBucket'], template: 'DUE#${dueBucket}', casing: 'none' },
  sk: { field: 'gsi2sk', composite: ['dueAt'], template: '${dueAt}', casing: 'none' },
} as const;
