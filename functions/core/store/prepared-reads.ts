import { GetCommand, type GetCommandInput, TransactGetCommand, type TransactGetCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EntityItem } from 'electrodb';
import { BoundedCache } from '#core/platform/bounded-cache';
import type { Database } from './database.ts';
import { entityAttribute } from './stream-records.ts';

/*
 * Reads on every request's path whose keys repeat from request to request: a verified
 * credential's record with its workspace, membership and namespace, a workspace by id.
 * ElectroDB spends about a tenth of a millisecond building a read's params (a transaction
 * of four gets, twice that), more than it spends on anything else of a warm request; so
 * these are built once per key and kept, and each request sends them and parses what
 * comes back with the entities' own parsers. The items are read anew every time.
 */

type Entities = Database['entities'];
type TransactionEntities = Parameters<Parameters<Database['transaction']['get']>[0]>[0];
/** An entity's key, as its get takes one (its other overload takes an array of them). */
type KeyOf<N extends keyof Entities> = Parameters<Entities[N]['get']>[0] extends readonly (infer K)[] ? K : never;

/** What every entity offers for an item of its own; ElectroDB types each by its attributes, so their union is not callable. */
interface ItemParser {
  parse(input: { Item: Record<string, unknown> }): { data: unknown };
}

/** An item as the entity it names parses it; null for none. */
function parsed(db: Database, item: Record<string, unknown> | undefined): unknown {
  const name = item?.[entityAttribute];
  const entity = typeof name === 'string' ? (db.entities as unknown as Record<string, ItemParser | undefined>)[name] : undefined;
  return item && entity ? entity.parse({ Item: item }).data : null;
}

/** A transactional read of several items, as ElectroDB's `transaction.get(...).go()` answers it. */
export interface PreparedTransactGet {
  go(): Promise<{ canceled: boolean; data: { item: unknown }[] }>;
}

/** `build`'s items read together, strongly consistent; a read cancelled by a write in flight answers `canceled`. */
export function prepareTransactGet(db: Database, build: (entities: TransactionEntities) => unknown[]): PreparedTransactGet {
  // ElectroDB types a transaction's params loosely; they are a document client's input.
  const params = db.transaction.get(build as Parameters<Database['transaction']['get']>[0]).params() as TransactGetCommandInput;
  return {
    go: async () => {
      try {
        const { Responses = [] } = await db.table.client.send(new TransactGetCommand(params));
        return { canceled: false, data: Responses.map((response) => ({ item: parsed(db, response.Item) })) };
      } catch (error) {
        if ((error as { CancellationReasons?: unknown }).CancellationReasons) return { canceled: true, data: [] };
        throw error;
      }
    },
  };
}

/** A bounded cache for each table (a process may use several: the tests', the bench's), made on first use. */
export function cachePerTable<T>(): (db: Database) => BoundedCache<T> {
  const caches = new WeakMap<Database, BoundedCache<T>>();
  return (db) => {
    let cache = caches.get(db);
    if (!cache) caches.set(db, (cache = new BoundedCache<T>()));
    return cache;
  };
}

/** Each table's prepared gets, by entity and key. */
const preparedGets = cachePerTable<GetCommandInput>();

/** An item by its key, as `db.entities[entity].get(key).go()` reads it (eventually consistent). */
export async function itemByKey<N extends keyof Entities>(db: Database, entity: N, key: KeyOf<N>): Promise<EntityItem<Entities[N]> | null> {
  const gets = preparedGets(db);
  const cacheKey = `${entity}:${JSON.stringify(key)}`;
  let params = gets.get(cacheKey);
  // Each entity's get is typed by its own key; this one's key was checked against it above.
  if (!params) gets.set(cacheKey, (params = (db.entities[entity].get as (key: unknown) => { params(): GetCommandInput })(key).params()));
  const { Item } = await db.table.client.send(new GetCommand(params));
  return parsed(db, Item) as EntityItem<Entities[N]> | null;
}
