import * as z from 'zod/mini';
import { idOf, resourceName, timestamp } from '#core/platform/common-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';
import { multiLine } from '#core/platform/text-rules';
import { slug } from './slug-schema.ts';

export const categoryId = idOf('category', 'a category id');

/** A post's categories: each link is one item of the post's transaction (at most 100 items). */
export const maxCategoriesPerPost = 10;
const maxDescriptionLength = 1000;

const description = describe(
  z.nullable(z.string().check(multiLine(), z.maxLength(maxDescriptionLength, `must be at most ${maxDescriptionLength} characters`))),
  `At most ${maxDescriptionLength} characters.`,
);

export const createCategoryBody = z.strictObject({
  name: resourceName,
  slug: z.optional(slug('category')),
  description: z.optional(description),
});

export const updateCategoryBody = z
  .strictObject({ name: z.optional(resourceName), slug: z.optional(slug('category')), description: z.optional(description) })
  .check(z.refine((body) => Object.keys(body).length > 0, { message: 'send at least one of name, slug, description' }));

export const category = withMeta(
  z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.nullable(z.string()),
    post_count: describe(z.int().check(z.gte(0)), 'The posts in the category.'),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  { id: 'Category', description: 'A category of posts, as lists and gets show it and `category.*` events carry it.' },
);
