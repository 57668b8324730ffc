import * as z from 'zod/mini';
import { handlersFor } from '#core/http/handlers';
import type { RouteSpec } from '#core/http/route-types';
import type { ListPage } from '#core/lists/list-page';
import type { ListSpec } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { dataOf, fieldsOf, noContent } from '#core/platform/common-schemas';

/**
 * What a handler may answer is its route's responses, checked by tsc (tsconfig includes
 * test/): the first table must compile (a ListPage is what listOf describes), and each
 * `@ts-expect-error` below is a wrong answer that must keep failing to.
 */
const thing = z.object({ id: z.string(), name: z.string() });
type Thing = z.output<typeof thing>;

const base = { method: 'GET', auth: 'none', summary: 'A thing', tag: 'test' } as const;
const routes = [
  { ...base, operationId: 'getThing', path: '/things/{id}', responses: { 200: { description: 'The thing.', schema: dataOf(thing) } } },
  { ...base, operationId: 'listThings', path: '/things', responses: { 200: { description: 'A page.', schema: listOf(thing) } } },
  { ...base, operationId: 'forgetThing', method: 'DELETE', path: '/things/{id}', responses: { 204: noContent } },
] as const satisfies readonly RouteSpec[];
type Routes = (typeof routes)[number];

const one: Thing = { id: 't1', name: 'one' };
const page: ListPage<Thing> = {
  data: [one],
  meta: { current_page: 1, per_page: 25, total: 1, last_page: 1, from: 1, to: 1, window: null },
  links: { first: 'https://api.test/things?page=1', last: 'https://api.test/things?page=1', prev: null, next: null },
};

handlersFor<Routes>()({
  getThing: async () => ({ status: 200, body: { data: one } }),
  listThings: async () => ({ status: 200, body: page }),
  forgetThing: async () => ({ status: 204 }),
});

handlersFor<Routes>()({
  // @ts-expect-error a field the schema lacks
  getThing: async () => ({ status: 200, body: { data: { ...one, colour: 'red' } } }),
  // @ts-expect-error a field the schema has, missing
  listThings: async () => ({ status: 200, body: { data: [one], meta: page.meta } }),
  // @ts-expect-error a body where the response has none
  forgetThing: async () => ({ status: 204, body: { id: one.id } }),
});

handlersFor<Routes>()({
  // @ts-expect-error a status the route does not declare
  getThing: async () => ({ status: 201, body: { data: one } }),
  listThings: async () => ({ status: 200, body: page }),
  forgetThing: async () => ({ status: 204 }),
});

const thingList = {
  fields: fieldsOf(thing),
  // @ts-expect-error a list sorts only by fields its items have
  sortable: ['colour'],
  searchable: ['name'],
} as const satisfies ListSpec<keyof typeof thing.shape>;

describe('a list spec', () => {
  it("offers its item schema's fields, in their order", () => {
    expect(thingList.fields).toEqual(['id', 'name']);
  });
});
