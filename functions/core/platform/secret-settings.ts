import * as z from 'zod/mini';
import { parseSettings } from './config.ts';

/**
 * The generated keys the stack keeps in Secrets Manager, by the name a definition declares
 * (`secrets`), with the variable the code reads and the one that carries their ARNs. A Lambda
 * is given only the ARNs, so that no key can be read from its configuration; its entry point
 * reads the values once (adapters/secrets/function-secrets.ts).
 */
export const secretVariables = {
  cursorSigningKey: { value: 'CURSOR_SIGNING_KEY', arns: 'CURSOR_SIGNING_KEY_ARN' },
  pixelHashKey: { value: 'PIXEL_HASH_KEY', arns: 'PIXEL_HASH_KEY_ARN' },
  webhookSecretKeys: { value: 'WEBHOOK_SECRET_KEYS', arns: 'WEBHOOK_SECRET_KEY_ARNS' },
} as const;

export type SecretName = keyof typeof secretVariables;

/** Comma-separated ARNs: the value is their secrets' values, comma-separated in the same order (the webhook keys, the sealing one first). */
const arnList = z.optional(
  z.pipe(
    z.string().check(z.regex(/^arn:[^,\s]+(,arn:[^,\s]+)*$/, 'must be comma-separated ARNs')),
    z.transform((value) => value.split(',')),
  ),
);

const secretArnSettings = z.object({
  CURSOR_SIGNING_KEY_ARN: arnList,
  PIXEL_HASH_KEY_ARN: arnList,
  WEBHOOK_SECRET_KEY_ARNS: arnList,
});

/** The variables of secrets' ARNs: what the stack sets (lib/constructs/function-environment.ts). */
export type SecretArnVariable = keyof z.input<typeof secretArnSettings>;

export type SecretArnSettings = z.infer<typeof secretArnSettings>;

export const secretArnSettingsOf = (env: NodeJS.ProcessEnv): SecretArnSettings => parseSettings(secretArnSettings, env);
