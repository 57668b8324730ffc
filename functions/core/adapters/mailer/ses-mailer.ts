import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { config } from '#core/platform/config';
import type { Mailer } from '#core/ports/mailer';
import { encodeMailbox } from './mime.ts';

/**
 * The mail port in AWS: SES v2, one SendEmail per message, as MAIL_FROM, the one verified
 * identity the role may send as (lib/constructs/mail.ts). The configuration set is where SES
 * reports bounces and complaints, which keeps a bounced address from being mailed again.
 */
export function createSesMailer(client: SESv2Client, from: string, configurationSet?: string): Mailer {
  // SES takes the sender as a header value: a display name beyond ASCII must be an encoded word.
  const sender = encodeMailbox(from);
  return {
    send: async (message) => {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: sender,
          ConfigurationSetName: configurationSet,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: {
                Text: { Data: message.text, Charset: 'UTF-8' },
                Html: { Data: message.html, Charset: 'UTF-8' },
              },
            },
          },
        }),
      );
    },
  };
}

/** The mail port's adapter in Lambda: SES in the function's region, as MAIL_FROM, through MAIL_CONFIGURATION_SET. */
export const sesMailer = (): Mailer =>
  createSesMailer(new SESv2Client({ region: config().AWS_REGION }), config().MAIL_FROM, config().MAIL_CONFIGURATION_SET);
