import { SESv2Client } from '@aws-sdk/client-sesv2';
import { createSesMailer } from '#core/adapters/mail/ses-mailer';
import { config } from '#core/platform/config';
import type { Deps } from '#core/ports/deps';
import { runtimeDeps } from './runtime.ts';

let deps: Deps | undefined;

/**
 * runtimeDeps with the SES mailer, for the only functions that send mail (users, sessions).
 * A module of its own, so that no other bundle holds the SES client (test/unit/aws-client-bundles.test.ts).
 */
export const mailingRuntimeDeps = (): Deps =>
  (deps ??= { ...runtimeDeps(), mailer: createSesMailer(new SESv2Client({ region: config().AWS_REGION }), config().MAIL_FROM) });
