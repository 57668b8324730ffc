import type { CredentialRoute, PublicRoute, RouteSpec } from './route-types.ts';

type RouteField = keyof CredentialRoute | keyof PublicRoute;

/** What a table may state once for all its routes: any route field. */
type RouteDefaults = Partial<CredentialRoute> | Partial<PublicRoute>;

/**
 * What a route of a table must state itself to be the route `V` (one member of RouteSpec):
 * the fields the defaults lack; a defaulted field only to override it, and must where the
 * default does not fit `V` (`auth: 'credential'` in a table of public routes).
 */
type RouteOver<D, V> = V extends unknown
  ? Omit<V, keyof D> & { [K in keyof D & keyof V as D[K] extends V[K] ? K : never]?: V[K] } & {
      [K in keyof D & keyof V as D[K] extends V[K] ? never : K]-?: V[K];
    }
  : never;

/** A field no route has, typed never, as `satisfies` would refuse it: a misspelt optional field fails tsc. */
type NoOtherFields<T> = { [K in Exclude<keyof T, RouteField>]: never };

/** The route as `{ ...defaults, ...route }` makes it, its literal types kept as `as const` keeps them. */
type WithDefaults<D, R> = { readonly [K in keyof D | keyof R]: K extends keyof R ? R[K] : K extends keyof D ? D[K] : never };

/**
 * One function's route table with the fields its routes share stated once:
 * `routeTable({ tag: 'Webhooks', auth: 'credential' }, [ ... ])`. Each route is checked as
 * `satisfies RouteSpec` would and keeps its exact types (no `as const`), which handlersFor,
 * defineRouteFunction and the registry infer from.
 */
export const routeTable = <const D extends RouteDefaults, const R extends readonly RouteOver<D, RouteSpec>[]>(
  defaults: D & NoInfer<NoOtherFields<D>>,
  routes: R & NoInfer<{ [I in keyof R]: NoOtherFields<R[I]> }>,
): { readonly [I in keyof R]: WithDefaults<D, R[I]> } =>
  // map() types its result as an array of one union; the tuple mapped above is what it builds.
  routes.map((route) => ({ ...defaults, ...route })) as { readonly [I in keyof R]: WithDefaults<D, R[I]> };

/** A route of several functions' tables: its table's route, tagged with the function (the table's key) that serves it. */
export type TaggedRoute<T extends Record<string, readonly RouteSpec[]>> = {
  [F in keyof T & string]: T[F][number] & { function: F };
}[keyof T & string];

/** The routes of several functions' tables, each tagged with the function that serves it, in the tables' order. */
export const taggedRoutes = <T extends Record<string, readonly RouteSpec[]>>(tables: T): TaggedRoute<T>[] =>
  (Object.keys(tables) as (keyof T & string)[]).flatMap((name) =>
    tables[name]!.map((route) => ({ ...route, function: name }) as TaggedRoute<T>),
  );
