import { z } from 'zod';
import { isKnownScope } from '#core/auth/scopes';
import { resourceName, timestamp } from './common.ts';

export const userTokenId = z.string().regex(/^\d{1,15}$/, 'must be a token id (an integer)').transform(Number);

export const createUserTokenBody = z.strictObject({
  name: resourceName,
  abilities: z.array(z.string().refine(isKnownScope, { message: 'is not a known scope' })).min(1).max(50).optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
});

export const userToken = z
  .object({
    id: z.int(),
    name: z.string(),
    abilities: z.array(z.string()),
    workspace_id: z.string(),
    last_used_at: timestamp.nullable(),
    expires_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'UserToken', description: 'A personal access token, without its secret.' });

export const createdUserToken = userToken
  .extend({ token: z.string().describe('`<id>|<secret>`: shown in this response only') })
  .meta({ id: 'CreatedUserToken' });
