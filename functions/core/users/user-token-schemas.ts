import * as z from 'zod/mini';
import { isKnownScope } from '#core/access/scopes';
import { resourceName, timestamp } from '#core/platform/common-schemas';
import { describe, wholeNumberText, withMeta } from '#core/platform/schema-meta';

export const userTokenId = wholeNumberText({ minimum: 1, maximum: 999_999_999_999_999 }, 'must be a token id (an integer)');

export const createUserTokenBody = z.strictObject({
  name: resourceName,
  abilities: z.optional(
    z.array(z.string().check(z.refine(isKnownScope, { message: 'is not a known scope' }))).check(z.minLength(1), z.maxLength(50)),
  ),
  expires_at: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
});

export const userToken = withMeta(
  z.object({
    id: z.int(),
    name: z.string(),
    abilities: z.array(z.string()),
    workspace_id: z.string(),
    last_used_at: z.nullable(timestamp),
    expires_at: z.nullable(timestamp),
    created_at: timestamp,
  }),
  { id: 'UserToken', description: 'A personal access token, without its secret.' },
);

export const createdUserToken = withMeta(
  z.extend(userToken, { token: describe(z.string(), '`<id>|<secret>`: shown in this response only') }),
  { id: 'CreatedUserToken' },
);
