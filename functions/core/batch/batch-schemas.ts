import * as z from 'zod/mini';
import { category } from '#core/content/category-schemas';
import { post } from '#core/content/post-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';

const maxBatchOperations = 100;

/** The resources a batch creates and updates, and the id prefix by which an update names its resource. */
const batchResources = ['posts', 'categories'] as const;

const operation = z.strictObject({
  action: describe(z.enum(['create', 'update']), 'create or update.'),
  resource: describe(
    z.optional(z.enum(batchResources)),
    'What a create makes: posts (the default) or categories. An update needs none: its id says (post_ or cat_); if given, it must agree.',
  ),
  id: describe(z.optional(z.string().check(z.maxLength(100))), "The post's or category's id: required for update, refused for create."),
  // Handed to the single route as sent (a copy would drop a key named __proto__, which the single route refuses).
  data: withMeta(
    z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
      message: 'must be an object: the body the single route takes',
    }),
    {
      type: 'object',
      description: 'The body the single route takes: POST /posts, PATCH /posts/{id}, POST /categories or PATCH /categories/{id}.',
    },
  ),
});

export const batchBody = withMeta(
  z.strictObject({
    operations: describe(
      z
        .array(operation)
        .check(
          z.minLength(1, 'must hold at least one operation'),
          z.maxLength(maxBatchOperations, `must hold at most ${maxBatchOperations} operations`),
        ),
      `1 to ${maxBatchOperations} operations, applied in order, each on its own through the same rules as its single route.`,
    ),
  }),
  {
    examples: [
      {
        operations: [
          { action: 'create', resource: 'posts', data: { title: 'Hello, world', status: 'draft' } },
          { action: 'update', id: 'cat_01JDQ8Z6Y3K4M5N6P7Q8R9S0TV', data: { name: 'Release notes' } },
        ],
      },
    ],
  },
);

export type BatchOperation = z.output<typeof operation>;

const errorEnvelope = withMeta(z.looseObject({ error: z.string(), error_code: z.string(), message: z.string() }), {
  description: 'The error envelope the single route would have answered (every field of it, as the Error schema).',
});

export const batchResult = withMeta(
  z.object({
    index: describe(z.int().check(z.gte(0)), 'The position of the operation in `operations`, from 0.'),
    status: describe(z.int(), 'The status the single route would have answered: 201 or 200, or its error status.'),
    data: describe(z.optional(z.union([post, category])), 'The post or category as the single route answers it (on success).'),
    error: z.optional(errorEnvelope),
  }),
  { id: 'BatchResult', description: 'What came of one operation of a batch: `data` when it succeeded, `error` when it did not.' },
);

export const batchAnswer = z.object({
  data: describe(z.array(batchResult), 'One result per operation, in order.'),
  meta: z.object({
    succeeded: z.int().check(z.gte(0)),
    failed: z.int().check(z.gte(0)),
  }),
});
