/**
 * What an entity with work still to do adds to its schema: `dueAt`, and the sparse gsi2
 * index over it from which the webhook sweeper reads what should have happened by now (an
 * event not yet fanned out, a delivery whose next attempt is overdue).
 *
 * | access pattern            | index | pk            | sk        |
 * |---------------------------|-------|---------------|-----------|
 * | overdue items of a kind   | gsi2  | DUE#<entity>  | <dueAt>   |
 *
 * It shares gsi2 with prunable.ts: an entity uses one or the other. As there, the partition
 * key has a composite attribute of its own (`dueBucket`, derived from `dueAt`), so a write
 * that sets `dueAt` writes both keys; an item leaves the index when its work is done by
 * removing `dueAt` and `dueBucket`, from which ElectroDB removes the two keys as well
 * (store/due-work.ts: removing `dueAt` alone would remove only `gsi2sk`).
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
