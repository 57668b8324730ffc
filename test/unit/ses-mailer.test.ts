import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { createSesMailer } from '#core/adapters/mailer/ses-mailer';

describe('the SES mailer', () => {
  const ses = mockClient(SESv2Client);
  afterEach(() => ses.reset());

  it('sends one SendEmail with the configured sender, the recipient, and the subject, text and HTML in UTF-8', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const mailer = createSesMailer(new SESv2Client({ region: 'eu-west-1' }), 'Tenant API <no-reply@api.example.com>');

    await mailer.send({ to: 'zoë@example.com', subject: 'Vérifiez', text: 'Lien : https://api.example.com/x', html: '<p>Lien</p>' });

    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input)).toEqual([
      {
        FromEmailAddress: 'Tenant API <no-reply@api.example.com>',
        Destination: { ToAddresses: ['zoë@example.com'] },
        Content: {
          Simple: {
            Subject: { Data: 'Vérifiez', Charset: 'UTF-8' },
            Body: {
              Text: { Data: 'Lien : https://api.example.com/x', Charset: 'UTF-8' },
              Html: { Data: '<p>Lien</p>', Charset: 'UTF-8' },
            },
          },
        },
      },
    ]);
  });

  it('sends through the configuration set when one is given (MAIL_CONFIGURATION_SET), so that SES reports its bounces and complaints', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-3' });
    const mailer = createSesMailer(new SESv2Client({ region: 'eu-west-1' }), 'no-reply@api.example.com', 'TenantApi-mail');
    await mailer.send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' });
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input.ConfigurationSetName).toBe('TenantApi-mail');
  });

  it('encodes a display name beyond ASCII as SES requires (RFC 2047)', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-2' });
    await createSesMailer(new SESv2Client({ region: 'eu-west-1' }), 'Zoë <no-reply@api.example.com>').send({
      to: 'a@example.com',
      subject: 's',
      text: 't',
      html: 'h',
    });
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input.FromEmailAddress).toBe(
      `=?UTF-8?B?${Buffer.from('Zoë').toString('base64')}?= <no-reply@api.example.com>`,
    );
  });

  it('fails the send when SES refuses, so that the caller never reports a mail as sent', async () => {
    ses.on(SendEmailCommand).rejects(new Error('Email address is not verified.'));
    const mailer = createSesMailer(new SESv2Client({ region: 'eu-west-1' }), 'no-reply@api.example.com');
    await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' })).rejects.toThrow(
      'Email address is not verified.',
    );
  });
});
