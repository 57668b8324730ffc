import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One message of the local runner's mail folder, decoded as a mail client shows it. */
export interface ReadMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The headers, names in lower case, values unfolded (not decoded). */
  headers: Record<string, string>;
  file: string;
}

/** Header lines of a block, folded lines joined (RFC 5322 2.2.3). */
function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** RFC 2047 encoded words (B and Q), adjacent ones joined as the RFC says. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, data: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : Buffer.from(
              data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      return new TextDecoder(charset).decode(bytes);
    });
}

function decodeBody(body: string, transferEncoding: string | undefined, charset: string): string {
  switch ((transferEncoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return new TextDecoder(charset).decode(Buffer.from(body.replace(/\s+/g, ''), 'base64'));
    case 'quoted-printable': {
      const latin1 = body.replace(/=\r\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return new TextDecoder(charset).decode(Buffer.from(latin1, 'latin1'));
    }
    default:
      return body;
  }
}

const parameter = (header: string | undefined, name: string) => header && new RegExp(`;\\s*${name}="?([^";]+)"?`, 'i').exec(header)?.[1];

/** Parses one `.eml` as the runner writes it: a multipart/alternative of text/plain and text/html (or one part). */
function parseEml(raw: string, file: string): ReadMail {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`${file} is not a message: no blank line after its headers`);
  const headers = parseHeaders(raw.slice(0, split));
  const body = raw.slice(split + 4);
  const parts: { type: string; content: string }[] = [];
  const boundary = parameter(headers['content-type'], 'boundary');
  const sections = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((section) => section.replace(/^\r\n/, '').replace(/\r\n$/, ''))
    : [
        `Content-Type: ${headers['content-type'] ?? 'text/plain'}\r\nContent-Transfer-Encoding: ${headers['content-transfer-encoding'] ?? '7bit'}\r\n\r\n${body}`,
      ];
  for (const section of sections) {
    const end = section.indexOf('\r\n\r\n');
    const partHeaders = parseHeaders(section.slice(0, end));
    const type = (partHeaders['content-type'] ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
    const charset = parameter(partHeaders['content-type'], 'charset') ?? 'us-ascii';
    parts.push({ type, content: decodeBody(section.slice(end + 4), partHeaders['content-transfer-encoding'], charset) });
  }
  return {
    to: decodeEncodedWords(headers.to ?? ''),
    subject: decodeEncodedWords(headers.subject ?? ''),
    text: parts.find((p) => p.type === 'text/plain')?.content ?? '',
    html: parts.find((p) => p.type === 'text/html')?.content ?? '',
    headers,
    file,
  };
}

/** Every message in the folder, oldest first (the runner's file names sort by time of sending). */
export async function readMailbox(mailDir: string): Promise<ReadMail[]> {
  const names = (await readdir(mailDir)).filter((name) => name.endsWith('.eml')).sort();
  return Promise.all(names.map(async (name) => parseEml(await readFile(join(mailDir, name), 'utf8'), join(mailDir, name))));
}

const addressOf = (mailbox: string) => (/<([^<>]+)>/.exec(mailbox)?.[1] ?? mailbox).trim().toLowerCase();

/**
 * The newest message to `address` (compared without case) in the runner's mail folder. The
 * runner writes each file before the request that sent it is answered, so there is nothing
 * to wait for; none is an error that lists who did get mail.
 */
export async function latestMailTo(mailDir: string, address: string): Promise<ReadMail> {
  const all = await readMailbox(mailDir);
  const found = all.filter((mail) => addressOf(mail.to) === address.toLowerCase()).at(-1);
  if (!found) {
    const recipients = [...new Set(all.map((mail) => addressOf(mail.to)))];
    throw new Error(
      `No mail to ${address} in ${mailDir} (${all.length} messages${recipients.length ? `, to ${recipients.join(', ')}` : ''})`,
    );
  }
  return found;
}
