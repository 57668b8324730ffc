import type { Principal } from '#core/access/principal';
import { runBatch } from '#core/batch/batch';
import { categoriesOf, createCategory, deleteCategory, getCategory, updateCategory } from '#core/content/categories';
import { categoryView } from '#core/content/category-view';
import { contentReaderOf } from '#core/content/content-owner';
import { postsOf, postViews } from '#core/content/post-list';
import { postView } from '#core/content/post-view';
import { createPost, deletePost, getPost, type PostChanges, updatePost } from '#core/content/posts';
import { operationOf } from '#core/http/dispatch';
import { handlersFor } from '#core/http/handlers';
import { fitsOneAnswer } from '#core/http/http-answer';
import { listPage } from '#core/lists/list-page';
import { ValidationFailed } from '#core/platform/errors';
import type { Deps } from '#core/ports/deps';
import { contentRoutes } from './routes.ts';

type Routes = (typeof contentRoutes)[number];

/** A change of a post as the API answers it. */
async function changePost(request: { principal: Principal; workspaceId: string }, deps: Deps, id: string, changes: PostChanges) {
  const reader = contentReaderOf(request);
  return postView(await updatePost(deps, reader, id, changes), reader.readsContent);
}

/** A post's body as the domain takes it: `category_ids` as `categoryIds`, and nothing else renamed or added. */
const postFieldsOf = <B extends { category_ids?: readonly string[] }>({ category_ids, ...fields }: B) => ({
  ...fields,
  ...(category_ids !== undefined && { categoryIds: category_ids }),
});

/** The handlers of posts and categories, which a batch's operations run as well. */
const resourceHandlers = handlersFor<Exclude<Routes, { operationId: 'batchResources' }>>()({
  listPosts: async ({ query, ...request }, deps) => {
    const withCategories = query.include?.includes('categories') ?? false;
    // What include asks for is shown whatever `fields` trims.
    const fields = withCategories && query.fields?.length ? [...query.fields, 'categories'] : query.fields;
    const page = await listPage(
      postsOf(deps, contentReaderOf(request), { withCategories, search: query.search, categoryId: query.category_id }),
      { ...query, fields },
      request.route.list,
      request.url,
    );
    if (!fitsOneAnswer(page)) {
      throw new ValidationFailed(
        { per_page: ['asks for more than one answer can carry with these posts: ask for fewer, or leave content out with fields'] },
        'The page of posts is larger than one answer may be (5 MB).',
      );
    }
    return { status: 200, body: page };
  },
  getPost: async (request, deps) => {
    const reader = contentReaderOf(request);
    const [view] = await postViews(deps, reader, [await getPost(deps, reader, request.params.id)], request.query.include === 'categories');
    return { status: 200, body: { data: view! } };
  },
  createPost: async ({ body, ...request }, deps) => {
    const reader = contentReaderOf(request);
    const post = await createPost(deps, reader, postFieldsOf(body));
    return { status: 201, body: { message: 'Post created.', data: postView(post, reader.readsContent) } };
  },
  updatePost: async ({ body, ...request }, deps) => ({
    status: 200,
    body: {
      message: 'Post updated.',
      data: await changePost(request, deps, request.params.id, postFieldsOf(body)),
    },
  }),
  deletePost: async (request, deps) => {
    await deletePost(deps, contentReaderOf(request), request.params.id);
    return { status: 204 };
  },
  publishPost: async (request, deps) => ({
    status: 200,
    body: { message: 'Post published.', data: await changePost(request, deps, request.params.id, { status: 'published' }) },
  }),
  archivePost: async (request, deps) => ({
    status: 200,
    body: { message: 'Post archived.', data: await changePost(request, deps, request.params.id, { status: 'archived' }) },
  }),
  listCategories: async (request, deps) => ({
    status: 200,
    body: await listPage(categoriesOf(deps, contentReaderOf(request)), request.query, request.route.list, request.url),
  }),
  getCategory: async (request, deps) => ({
    status: 200,
    body: { data: categoryView(await getCategory(deps, contentReaderOf(request), request.params.id)) },
  }),
  createCategory: async (request, deps) => ({
    status: 201,
    body: { message: 'Category created.', data: categoryView(await createCategory(deps, contentReaderOf(request), request.body)) },
  }),
  updateCategory: async (request, deps) => ({
    status: 200,
    body: {
      message: 'Category updated.',
      data: categoryView(await updateCategory(deps, contentReaderOf(request), request.params.id, request.body)),
    },
  }),
  deleteCategory: async (request, deps) => {
    await deleteCategory(deps, contentReaderOf(request), request.params.id);
    return { status: 204 };
  },
});

const routeById = <K extends Routes['operationId']>(id: K) =>
  contentRoutes.find((route) => route.operationId === id) as Extract<Routes, { operationId: K }>;

/** What a batch's operations run as: the single routes with their handlers. */
const batchOperations = {
  createPost: operationOf(routeById('createPost'), resourceHandlers.createPost),
  updatePost: operationOf(routeById('updatePost'), resourceHandlers.updatePost),
  createCategory: operationOf(routeById('createCategory'), resourceHandlers.createCategory),
  updateCategory: operationOf(routeById('updateCategory'), resourceHandlers.updateCategory),
};

export const contentHandlers = handlersFor<Routes>()({
  ...resourceHandlers,
  batchResources: async (request, deps) => ({
    status: 200,
    body: await runBatch(request, deps, request.body.operations, batchOperations),
  }),
});
