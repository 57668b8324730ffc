import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mailer } from '#core/ports/mailer';
import { renderEml } from './mime.ts';

/** What was written, for the one line per message the local runner prints. */
export interface WrittenMail {
  to: string;
  subject: string;
  file: string;
}

export interface EmlMailerOptions {
  /** An existing folder; each message becomes one file in it. */
  dir: string;
  /** The sender: an address or `Name <address>` (MAIL_FROM). */
  from: string;
  /** Called once a message is on disk. */
  written: (mail: WrittenMail) => void;
  now?: () => Date;
}

/**
 * The local mail port: every message an RFC 5322 `.eml` file, named so that a sort by name
 * is the order of sending (UTC time, then a per-process sequence, then a random tail so
 * that two runners sharing a folder never collide). The file is complete before send()
 * resolves, so a handler's answer never arrives before its mail.
 */
export function createEmlMailer(options: EmlMailerOptions): Mailer {
  const now = options.now ?? (() => new Date());
  let sequence = 0;
  return {
    send: async (message) => {
      const date = now();
      const eml = renderEml(message, options.from, date);
      const stamp = date.toISOString().replace(/[-:.]/g, '');
      sequence += 1;
      const file = join(options.dir, `${stamp}-${String(sequence).padStart(6, '0')}-${randomBytes(3).toString('hex')}.eml`);
      await writeFile(file, eml, { flag: 'wx' });
      options.written({ to: message.to, subject: message.subject, file });
    },
  };
}
