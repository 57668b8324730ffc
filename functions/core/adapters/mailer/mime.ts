import { randomBytes } from 'node:crypto';
import type { MailMessage } from '#core/ports/mailer';

/**
 * RFC 5322 / MIME rendering of one message, for the local runner's `.eml` files: what a
 * mail client opens as the message SES would have delivered. Both parts are UTF-8 and
 * quoted-printable, so that the files stay readable in a text editor.
 */

const CRLF = '\r\n';

/** A header value with a line break would let its content write headers of its own (header injection). */
function headerSafe(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`Refusing to write a ${name} header with a line break in it.`);
  return value;
}

/**
 * RFC 2047 encoded words (`=?UTF-8?B?…?=`) for a header text that is not plain ASCII, each
 * at most 75 characters and cut between characters, never inside one.
 */
function encodeHeaderText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    // 39 bytes of UTF-8 become 52 base64 characters: 64 with the =?UTF-8?B? ?= frame, so
    // that a line stays within 78 characters after `Subject: `.
    if (Buffer.byteLength(chunk + char) > 39) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString('base64')}?=`).join(`${CRLF} `);
}

/** `Name <address>` or a bare address, with a display name that is not plain ASCII encoded. */
export function encodeMailbox(mailbox: string): string {
  const match = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(mailbox);
  if (!match) return mailbox.trim();
  const [, name, address] = match as unknown as [string, string, string];
  if (!name) return `<${address}>`;
  const unquoted = name.replace(/^"(.*)"$/, '$1');
  // Specials (RFC 5322 3.2.3) in an ASCII name need quotes; a non-ASCII one is an encoded word.
  const phrase = /^[\x20-\x7e]*$/.test(unquoted)
    ? /[()<>[\]:;@\\,."]/.test(unquoted)
      ? `"${unquoted.replace(/(["\\])/g, '\\$1')}"`
      : unquoted
    : encodeHeaderText(unquoted);
  return `${phrase} <${address}>`;
}

/** The address of a mailbox (`Name <a@b>` or `a@b`). */
export const addressOf = (mailbox: string) => /<([^<>]+)>/.exec(mailbox)?.[1] ?? mailbox.trim();

const isQuotedPrintableLiteral = (byte: number) => (byte >= 33 && byte <= 126 && byte !== 61) || byte === 32 || byte === 9;

/** Quoted-printable (RFC 2045 6.7) of UTF-8 text, CRLF line ends, lines of at most 76 characters. */
function encodeQuotedPrintable(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => {
      const bytes = Buffer.from(line);
      const tokens = [...bytes].map((byte, i) => {
        const trailingSpace = (byte === 32 || byte === 9) && i === bytes.length - 1;
        return isQuotedPrintableLiteral(byte) && !trailingSpace
          ? String.fromCharCode(byte)
          : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      });
      const out: string[] = [];
      let current = '';
      for (const token of tokens) {
        // 75 plus the soft break's `=`: never split an =XX escape.
        if (current.length + token.length > 75) {
          out.push(`${current}=`);
          current = '';
        }
        current += token;
      }
      out.push(current);
      return out.join(CRLF);
    })
    .join(CRLF);
}

/** RFC 5322 date-time in UTC, e.g. `Mon, 23 Nov 2026 04:07:32 +0000`. */
const rfc5322Date = (date: Date) => date.toUTCString().replace(/GMT$/, '+0000');

/** The whole message, CRLF line ends throughout: From, To, Subject, Date, Message-ID and two alternative parts. */
export function renderEml(message: MailMessage, from: string, date: Date): string {
  const to = headerSafe('To', message.to);
  const subject = headerSafe('Subject', message.subject);
  headerSafe('From', from);
  const boundary = `=_alt_${randomBytes(12).toString('hex')}`;
  const domain = addressOf(from).split('@')[1] ?? 'localhost';
  const part = (type: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset=UTF-8`,
      'Content-Transfer-Encoding: quoted-printable',
      '',
      encodeQuotedPrintable(body),
    ].join(CRLF);
  return [
    `From: ${encodeMailbox(from)}`,
    `To: ${encodeMailbox(to)}`,
    `Subject: ${encodeHeaderText(subject)}`,
    `Date: ${rfc5322Date(date)}`,
    `Message-ID: <${randomBytes(16).toString('hex')}@${domain}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    part('text/plain', message.text),
    part('text/html', message.html),
    `--${boundary}--`,
    '',
  ].join(CRLF);
}
