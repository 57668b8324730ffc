import * as z from 'zod/mini';
import { describe } from '#core/platform/schema-meta';

const maxSlugLength = 200;

/** A client's own slug of a post or category: lower-case letters and digits in hyphen-joined runs. */
export const slug = (of: 'post' | 'category') =>
  describe(
    z
      .string()
      .check(
        z.maxLength(maxSlugLength, `must be at most ${maxSlugLength} characters`),
        z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters and digits in runs joined by single hyphens (my-first-post)'),
      ),
    `Unique among the ${of === 'post' ? 'posts' : 'categories'} of the workspace and environment (409 DUPLICATE_RESOURCE); made from the ${of === 'post' ? 'title' : 'name'} when omitted (\`-2\`, \`-3\` ... when taken).`,
  );
