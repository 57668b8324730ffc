import type { RouteSpec } from './route-types.ts';
import type { HandlersFor, ResponseOf } from './types.ts';

/** The members of the union `Declared` that `Given` fits. */
type Fitting<Given, Declared> = Declared extends unknown ? (Given extends Declared ? Declared : never) : never;
type KeysOf<T> = T extends unknown ? keyof T : never;
type ValueAt<T, K> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
type ElementOf<T> = T extends readonly (infer E)[] ? E : never;

/**
 * `Given` with every property that `Declared` lacks, at any depth, typed never (an unknown
 * value has none to lack). What does not fit `Declared` at all is left as it is: the plain
 * assignment reports that better.
 */
type Exact<Given, Declared> = unknown extends Declared
  ? Given
  : Given extends readonly unknown[]
    ? { [K in keyof Given]: Exact<Given[K], ElementOf<Declared>> }
    : Given extends object
      ? [Fitting<Given, Declared>] extends [never]
        ? Given
        : {
            [K in keyof Given]: K extends KeysOf<Fitting<Given, Declared>> ? Exact<Given[K], ValueAt<Fitting<Given, Declared>, K>> : never;
          }
      : Given;

/** Each handler as it is, but answering exactly what its route declares. */
type ExactHandlers<H, Routes extends RouteSpec> = {
  [K in keyof H]: H[K] extends (...args: infer A) => Promise<infer Given>
    ? (...args: A) => Promise<Exact<Given, ResponseOf<Extract<Routes, { operationId: K }>>>>
    : H[K];
};

/**
 * The handlers of one function's routes: `handlersFor<(typeof routes)[number]>()({ ... })`,
 * curried as the routes are named and the handlers inferred. TypeScript checks a returned
 * literal for extra properties only where a return type is declared, which a handler in a table
 * lacks, so each answer is compared with its route's here and a field a schema lacks fails tsc.
 */
export const handlersFor =
  <Routes extends RouteSpec>() =>
  <H extends HandlersFor<Routes> & ExactHandlers<H, Routes>>(handlers: H): HandlersFor<Routes> =>
    handlers;
