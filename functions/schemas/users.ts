import * as z from 'zod/mini';
import { withMeta } from '#core/schema-meta';
import { tierNames } from '#core/tiers';
import { resourceName, timestamp } from './common.ts';

export const email = z.pipe(
  z.email('must be an email address').check(z.maxLength(254)),
  z.transform((v: string) => v.toLowerCase()),
);
export const password = z.string().check(z.minLength(8, 'must be at least 8 characters'), z.maxLength(200));

export const user = withMeta(
  z.object({
    id: z.int(),
    name: z.string(),
    email: z.string(),
    tier: z.enum(tierNames),
    email_verified_at: z.nullable(timestamp),
    created_at: timestamp,
  }),
  { id: 'User' },
);

export const member = withMeta(z.extend(user, { role: z.enum(['owner', 'admin', 'member']) }), { id: 'Member' });

export const userId = z.pipe(z.string().check(z.regex(/^\d{1,15}$/, 'must be a user id (an integer)')), z.transform(Number));

export const updateUserBody = z
  .strictObject({ name: z.optional(resourceName), email: z.optional(email) })
  .check(z.refine((body) => Object.keys(body).length > 0, { message: 'send at least one of name, email' }));

export const addMemberBody = z.strictObject({
  email,
  name: z.optional(resourceName),
  role: z._default(z.enum(['admin', 'member']), 'member'),
  password: z.optional(password),
});

export const registerBody = z.strictObject({ name: resourceName, email, password });

export const loginBody = z.strictObject({
  email: z.string().check(z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
});
