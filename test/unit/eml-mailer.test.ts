import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmlMailer, type WrittenMail } from '#core/adapters/mailer/eml-mailer';
import type { MailMessage } from '#core/ports/mailer';
import { latestMailTo, readMailbox } from '../support/mailbox.ts';

describe('the .eml mailer of the local runner', () => {
  let dir: string;
  let written: WrittenMail[];
  const mailer = () =>
    createEmlMailer({
      dir,
      from: 'Zoë’s Tenant API <no-reply@example.com>',
      written: (mail) => written.push(mail),
      now: () => new Date('2026-11-23T04:07:32.123Z'),
    });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'eml-mailer-test-'));
    written = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const longLink = `https://api.example.com/api/v1/email/verify/42/${'a1B2'.repeat(20)}?expires=1790000000&signature=${'f0'.repeat(32)}`;
  const message: MailMessage = {
    to: 'Some.Person@Example.com',
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse — 確認してください, a subject long enough to need several encoded words',
    text: `Grüße, José!\n\nOpen this link within 60 minutes:\n${longLink}\n\nA line with trailing spaces   \nand = signs = here.\n`,
    html: `<p>Grüße, José!</p>\r\n<p><a href="${longLink}">Bestätigen</a></p>\r\n`,
  };

  it('writes a message that decodes back to what was sent, non-ASCII subject, text and HTML alike', async () => {
    await mailer().send(message);
    const [mail] = await readMailbox(dir);
    expect(mail).toMatchObject({
      to: message.to,
      subject: message.subject,
      // Line ends are CRLF in the message, as RFC 5322 has them.
      text: message.text.replace(/\n/g, '\r\n'),
      html: message.html,
    });
  });

  it('writes RFC 5322: CRLF only, lines of at most 78 characters, the headers a client needs, encoded words in the subject and the sender', async () => {
    await mailer().send(message);
    const [name] = readdirSync(dir);
    const raw = readFileSync(join(dir, name!), 'utf8');
    expect(raw).not.toMatch(/[^\r]\n|\r[^\n]/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is 0x00-0x7F, controls included
    expect(raw).toMatch(/^[\x00-\x7f]*$/);
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    const [head] = raw.split('\r\n\r\n');
    expect(head).toContain(`From: =?UTF-8?B?${Buffer.from('Zoë’s Tenant API').toString('base64')}?= <no-reply@example.com>`);
    expect(head).toContain('\r\nTo: Some.Person@Example.com\r\n');
    expect(head).toContain('Date: Mon, 23 Nov 2026 04:07:32 +0000');
    expect(head).toMatch(/\r\nMessage-ID: <[0-9a-f]{32}@example\.com>\r\n/);
    expect(head).toContain('MIME-Version: 1.0');
    expect(head).toMatch(/Content-Type: multipart\/alternative; boundary="[^"]+"/);
    expect(head).toMatch(/\r\nSubject: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=\r\n =\?UTF-8\?B\?/);
    expect(raw).toContain('Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable');
    expect(raw).toContain('Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable');
  });

  it('names files by time of sending and a sequence, so that the newest message to an address is the last by name', async () => {
    const send = mailer();
    await send.send({ ...message, to: 'a@example.com', subject: 'first' });
    await send.send({ ...message, to: 'b@example.com', subject: 'other' });
    await send.send({ ...message, to: 'A@Example.com', subject: 'second' });
    expect(readdirSync(dir).sort()[0]).toMatch(/^20261123T040732123Z-000001-[0-9a-f]{6}\.eml$/);
    expect((await latestMailTo(dir, 'a@EXAMPLE.com')).subject).toBe('second');
    await expect(latestMailTo(dir, 'c@example.com')).rejects.toThrow(
      `No mail to c@example.com in ${dir} (3 messages, to a@example.com, b@example.com)`,
    );
  });

  it('reports each message once it is on disk: recipient, subject, file', async () => {
    await mailer().send(message);
    expect(written).toEqual([{ to: message.to, subject: message.subject, file: join(dir, readdirSync(dir)[0]!) }]);
  });

  it.each([
    ['To', { to: 'victim@example.com\r\nBcc: everyone@example.com' }],
    ['Subject', { subject: 'Hello\nBcc: everyone@example.com' }],
  ])('refuses a line break in the %s header (header injection) and writes nothing', async (header, change) => {
    await expect(mailer().send({ ...message, ...change })).rejects.toThrow(`Refusing to write a ${header} header with a line break in it.`);
    expect(readdirSync(dir)).toEqual([]);
    expect(written).toEqual([]);
  });
});
