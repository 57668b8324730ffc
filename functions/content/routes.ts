import * as z from 'zod/mini';
import { batchAnswer, batchBody } from '#core/batch/batch-schemas';
import { category, categoryId, createCategoryBody, updateCategoryBody } from '#core/content/category-schemas';
import { createPostBody, includeQuery, post, postId, postWithCategories, updatePostBody } from '#core/content/post-schemas';
import { routeTable } from '#core/http/route-table';
import { type ListSpec, listQuerySchema } from '#core/lists/list-query';
import { listOf } from '#core/lists/list-schemas';
import { contextQuery, createdOf, dataOf, fieldsOf, noContent } from '#core/platform/common-schemas';
import { describe } from '#core/platform/schema-meta';
import { postStatuses } from '#core/store/entities/post-status';

const postList = {
  // `categories` comes with include=categories, which `fields` keeps.
  fields: fieldsOf(post),
  sortable: ['title', 'slug', 'status', 'published_at', 'created_at', 'updated_at'],
  searchable: ['title', 'excerpt'],
  searchByWords: true,
  statusField: 'status',
  statusValues: postStatuses,
  includes: ['categories'],
} as const satisfies ListSpec<keyof typeof postWithCategories.shape>;

const categoryList = {
  fields: fieldsOf(category),
  sortable: ['name', 'slug', 'post_count', 'created_at', 'updated_at'],
  searchable: ['name', 'slug', 'description'],
} as const satisfies ListSpec<keyof typeof category.shape>;

const byPostId = z.object({ id: postId });
const byCategoryId = z.object({ id: categoryId });

/**
 * The routes of the content function: the posts and categories of the acting workspace in
 * the acting credential's environment (a test key reads and writes test content only), and
 * the batch that creates and updates them.
 */
export const contentRoutes = routeTable({ tag: 'Posts', auth: 'credential', query: contextQuery, keepsEnvironmentsApart: true }, [
  {
    operationId: 'listPosts',
    method: 'GET',
    path: '/posts',
    scope: 'posts:read',
    summary: 'List posts; search finds every post whose title or excerpt has the words (or word prefixes) asked',
    query: listQuerySchema(postList, {
      category_id: describe(z.optional(categoryId), "Only the category's posts (through its links: every one, whatever the list's size)."),
    }),
    list: postList,
    responses: { 200: { description: 'A page of posts.', schema: listOf(postWithCategories) } },
  },
  {
    operationId: 'getPost',
    method: 'GET',
    path: '/posts/{id}',
    scope: 'posts:read',
    summary: 'Get a post (its content with posts:read-content; its categories with include=categories)',
    params: byPostId,
    query: includeQuery,
    responses: { 200: { description: 'The post.', schema: dataOf(postWithCategories) } },
  },
  {
    operationId: 'createPost',
    method: 'POST',
    path: '/posts',
    scope: 'posts:write',
    summary: 'Create a post (a draft unless status says otherwise), counted against the posts entitlement',
    body: createPostBody,
    errors: ['ENTITLEMENT_DENIED', 'DUPLICATE_RESOURCE'],
    responses: { 201: { description: 'The new post.', schema: createdOf(post) } },
  },
  {
    operationId: 'updatePost',
    method: 'PATCH',
    path: '/posts/{id}',
    scope: 'posts:write',
    summary: "Change a post's title, slug, excerpt, content, status or categories",
    params: byPostId,
    body: updatePostBody,
    errors: ['DUPLICATE_RESOURCE'],
    responses: { 200: { description: 'The post as changed.', schema: createdOf(post) } },
  },
  {
    operationId: 'deletePost',
    method: 'DELETE',
    path: '/posts/{id}',
    scope: 'posts:delete',
    summary: 'Delete a post',
    params: byPostId,
    responses: { 204: noContent },
  },
  {
    operationId: 'publishPost',
    method: 'POST',
    path: '/posts/{id}/publish',
    scope: 'posts:write',
    summary: 'Publish a post: published_at is set the first time only; publishing a published post changes nothing',
    params: byPostId,
    responses: { 200: { description: 'The published post.', schema: createdOf(post) } },
  },
  {
    operationId: 'archivePost',
    method: 'POST',
    path: '/posts/{id}/archive',
    scope: 'posts:write',
    summary: 'Archive a post; its published_at stays',
    params: byPostId,
    responses: { 200: { description: 'The archived post.', schema: createdOf(post) } },
  },
  {
    operationId: 'listCategories',
    method: 'GET',
    path: '/categories',
    tag: 'Categories',
    scope: 'categories:read',
    summary: 'List categories with their post counts',
    query: listQuerySchema(categoryList),
    list: categoryList,
    responses: { 200: { description: 'A page of categories.', schema: listOf(category) } },
  },
  {
    operationId: 'getCategory',
    method: 'GET',
    path: '/categories/{id}',
    tag: 'Categories',
    scope: 'categories:read',
    summary: 'Get a category',
    params: byCategoryId,
    responses: { 200: { description: 'The category.', schema: dataOf(category) } },
  },
  {
    operationId: 'createCategory',
    method: 'POST',
    path: '/categories',
    tag: 'Categories',
    scope: 'categories:write',
    summary: 'Create a category',
    body: createCategoryBody,
    errors: ['DUPLICATE_RESOURCE'],
    responses: { 201: { description: 'The new category.', schema: createdOf(category) } },
  },
  {
    operationId: 'updateCategory',
    method: 'PATCH',
    path: '/categories/{id}',
    tag: 'Categories',
    scope: 'categories:write',
    summary: "Change a category's name, slug or description",
    params: byCategoryId,
    body: updateCategoryBody,
    errors: ['DUPLICATE_RESOURCE'],
    responses: { 200: { description: 'The category as changed.', schema: createdOf(category) } },
  },
  {
    operationId: 'deleteCategory',
    method: 'DELETE',
    path: '/categories/{id}',
    tag: 'Categories',
    scope: 'categories:delete',
    summary: 'Delete a category: it is taken out of its posts, which are otherwise left as they are',
    params: byCategoryId,
    responses: { 204: noContent },
  },
  {
    operationId: 'batchResources',
    limitsConcurrency: true,
    description:
      'Each operation is answered on its own in the results, in order, with what its single route would have answered (its data or its error envelope); one failure does not undo the others.',
    method: 'POST',
    path: '/resources/batch',
    tag: 'Batch',
    scope: 'resources:write',
    summary:
      'Create and update up to 100 posts and categories in one request: each operation runs on its own, with its single route’s scope and rules',
    body: batchBody,
    responses: { 200: { description: 'One result per operation, in order; 200 even when some failed.', schema: batchAnswer } },
  },
]);
