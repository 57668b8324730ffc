import { z } from 'zod';
import { tierNames } from '#core/tiers';
import { resourceName, timestamp } from './common.ts';

export const email = z.email('must be an email address').max(254).transform((v) => v.toLowerCase());
export const password = z.string().min(8, 'must be at least 8 characters').max(200);

export const user = z
  .object({
    id: z.int(),
    name: z.string(),
    email: z.string(),
    tier: z.enum(tierNames),
    email_verified_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'User' });

export const member = user.extend({ role: z.enum(['owner', 'admin', 'member']) }).meta({ id: 'Member' });

export const userId = z.string().regex(/^\d{1,15}$/, 'must be a user id (an integer)').transform(Number);

export const updateUserBody = z
  .strictObject({ name: resourceName.optional(), email: email.optional() })
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one of name, email' });

export const addMemberBody = z.strictObject({
  email,
  name: resourceName.optional(),
  role: z.enum(['admin', 'member']).default('member'),
  password: password.optional(),
});

export const registerBody = z.strictObject({ name: resourceName, email, password });

export const loginBody = z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(200) });
