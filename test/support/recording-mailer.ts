import type { Mailer, MailMessage } from '#core/ports/mailer';

/** A mailer that keeps what it is given, for domain tests: the local runner's .eml files play this part end to end. */
export function recordingMailer(): Mailer & {
  sent: MailMessage[];
  lastTo(address: string): MailMessage;
  linkIn(message: MailMessage): string;
} {
  const sent: MailMessage[] = [];
  return {
    sent,
    send: async (message) => void sent.push(message),
    lastTo(address) {
      const found = sent.filter((m) => m.to === address).at(-1);
      if (!found) throw new Error(`no mail to ${address}; sent: ${JSON.stringify(sent.map((m) => [m.to, m.subject]))}`);
      return found;
    },
    linkIn(message) {
      const link = /https?:\/\/\S+/.exec(message.text)?.[0];
      if (!link) throw new Error(`no link in mail "${message.subject}"`);
      return link;
    },
  };
}
