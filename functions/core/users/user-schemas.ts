import * as z from 'zod/mini';
import { resourceName, timestamp } from '#core/platform/common-schemas';
import { describe, wholeNumberText, withMeta } from '#core/platform/schema-meta';
import { tierNames } from '#core/platform/tiers';
import { invitedRoles, roles } from '#core/store/roles';
import { passwordFitsBcrypt, passwordMinLength, passwordTooLongMessage } from './passwords.ts';

const email = z.pipe(
  z.email('must be an email address').check(z.maxLength(254)),
  z.transform((v: string) => v.toLowerCase()),
);
/** A password being set: bcrypt reads 72 bytes, so a longer one is refused rather than cut short. */
export const password = z
  .string()
  .check(
    z.minLength(passwordMinLength, `must be at least ${passwordMinLength} characters`),
    z.refine(passwordFitsBcrypt, passwordTooLongMessage),
  );

const passwordConfirmation = z.optional(z.string().check(z.maxLength(200)));

/**
 * Laravel's `confirmed` rule: `password_confirmation`, when sent, must equal `password`;
 * a mismatch is reported on `password`.
 */
function confirmed<S extends z.ZodMiniObject<{ password: typeof password; password_confirmation: typeof passwordConfirmation }>>(
  body: S,
): S {
  return body.check(
    z.refine(
      (value: { password: string; password_confirmation?: string }) =>
        value.password_confirmation === undefined || value.password_confirmation === value.password,
      {
        message: 'The password field confirmation does not match.',
        path: ['password'],
      },
    ),
  );
}

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

export const member = withMeta(z.extend(user, { role: z.enum(roles) }), { id: 'Member' });

export const userId = wholeNumberText({ minimum: 1, maximum: 999_999_999_999_999 }, 'must be a user id (an integer)');

/** The account's password, typed again to confirm a change (never stored or echoed). */
const currentPassword = z.string().check(z.minLength(1), z.maxLength(200));

export const updateUserBody = z
  .strictObject({
    name: z.optional(resourceName),
    email: z.optional(email),
    current_password: z.optional(describe(currentPassword, 'Your current password: required with a new `email`, checked whenever sent.')),
  })
  .check(z.refine((body) => body.name !== undefined || body.email !== undefined, { message: 'send at least one of name, email' }));

export const addMemberBody = z.strictObject({
  email,
  name: z.optional(resourceName),
  role: z._default(z.enum(invitedRoles), 'member'),
});

export const registerBody = confirmed(z.strictObject({ name: resourceName, email, password, password_confirmation: passwordConfirmation }));

export const forgotPasswordBody = z.strictObject({ email });

export const resetPasswordBody = confirmed(
  z.strictObject({
    token: z.string().check(z.minLength(1), z.maxLength(200)),
    email,
    password,
    password_confirmation: passwordConfirmation,
  }),
);

export const changePasswordBody = confirmed(
  z.strictObject({ current_password: currentPassword, password, password_confirmation: passwordConfirmation }),
);

/** The path of a mailed link: the user's id and the token. */
export const accountLinkParams = z.object({
  id: userId,
  token: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be the token of the link')),
});

/**
 * A mailed link as opened (GET, HEAD): the page reads nothing, so any id and token get it,
 * a link mangled in the copying too (a trailing `=` of quoted-printable); its button's POST
 * checks them (accountLinkParams) and says what is wrong, as a page to a browser.
 */
export const openedLinkParams = z.object({
  id: describe(z.string().check(z.maxLength(200)), 'The user id of the link.'),
  token: describe(z.string().check(z.maxLength(400)), 'The token of the link.'),
});

export const accountMessage = withMeta(z.object({ message: z.string() }), {
  id: 'AccountMessage',
  description: 'What happened, or what to do next.',
});

export const loginBody = z.strictObject({
  email: z.string().check(z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
});
