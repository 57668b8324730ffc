import * as z from 'zod/mini';
import { idOf, timestamp } from '#core/platform/common-schemas';
import { describe, withMeta } from '#core/platform/schema-meta';
import { multiLine, singleLine } from '#core/platform/text-rules';
import { postStatuses } from '#core/store/entities/post-status';
import { category, categoryId, maxCategoriesPerPost } from './category-schemas.ts';
import { slug } from './slug-schema.ts';
import { maxIndexedWords } from './words.ts';

export const postId = idOf('post', 'a post id');

const maxTitleLength = 255;
const maxExcerptLength = 1000;
/** Bytes of UTF-8: a post, and each event that carries it with and without its content, fit one DynamoDB item (400 KB). */
const maxContentBytes = 100 * 1024;

const title = describe(
  z.string().check(
    singleLine(),
    z.trim(),
    z.maxLength(maxTitleLength, `must be at most ${maxTitleLength} characters`),
    // Not only spaces, zero-width characters or combining marks: a title shows something.
    z.regex(/[\p{L}\p{N}\p{P}\p{S}]/u, 'must not be blank'),
  ),
  `At most ${maxTitleLength} characters. Its words, then the excerpt's (${maxIndexedWords} distinct at most), are what search finds the post by.`,
);

const excerpt = describe(
  z.nullable(z.string().check(multiLine(), z.maxLength(maxExcerptLength, `must be at most ${maxExcerptLength} characters`))),
  `A summary of at most ${maxExcerptLength} characters; searched with the title.`,
);

const content = describe(
  z.nullable(
    z.string().check(
      multiLine(),
      z.refine((text) => Buffer.byteLength(text, 'utf8') <= maxContentBytes, `must be at most ${maxContentBytes} bytes of UTF-8`),
    ),
  ),
  `The body, at most ${maxContentBytes} bytes of UTF-8. Shown only to credentials holding posts:read-content.`,
);

const categoryIds = describe(
  z.array(categoryId).check(z.maxLength(maxCategoriesPerPost, `must name at most ${maxCategoriesPerPost} categories`)),
  `Categories of the same workspace and environment, at most ${maxCategoriesPerPost}; the post's categories become exactly these.`,
);

const status = describe(
  z.enum(postStatuses),
  'draft (the default), published or archived. Publishing sets published_at the first time; archiving keeps it.',
);

export const createPostBody = z.strictObject({
  title,
  slug: z.optional(slug('post')),
  excerpt: z.optional(excerpt),
  content: z.optional(content),
  status: z.optional(status),
  category_ids: z.optional(categoryIds),
});

export const updatePostBody = z
  .strictObject({
    title: z.optional(title),
    slug: z.optional(slug('post')),
    excerpt: z.optional(excerpt),
    content: z.optional(content),
    status: z.optional(status),
    category_ids: z.optional(categoryIds),
  })
  .check(z.refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' }));

const postFields = {
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.nullable(z.string()),
  content: describe(z.optional(z.nullable(z.string())), 'Present only for credentials holding posts:read-content.'),
  status: z.enum(postStatuses),
  published_at: describe(z.nullable(timestamp), 'When the post was first published; archiving and unpublishing keep it.'),
  category_ids: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
};

export const post = withMeta(z.object(postFields), {
  id: 'Post',
  description: 'A post as lists and gets show it, and as `post.*` events carry it. `content` only with posts:read-content.',
});

export const postWithCategories = withMeta(
  z.object({
    ...postFields,
    categories: describe(z.optional(z.array(category)), 'The categories of category_ids, with include=categories.'),
  }),
  { id: 'PostWithCategories', description: 'A post, with its categories when include=categories asks for them.' },
);

export const includeQuery = z.strictObject({
  include: describe(z.optional(z.literal('categories')), 'categories: the post with its categories in full.'),
  workspace_id: z.optional(z.string()),
  namespace_id: z.optional(z.string()),
});
