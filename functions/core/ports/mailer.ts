/**
 * One outgoing message: plain text and HTML, every link in them absolute to the service's
 * public base URL (never to a Host header a client sent).
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The mail port (docs/architecture.md, Ports). Amazon SES v2 in AWS; the local runner writes
 * each message as an RFC 5322 `.eml` file into MAIL_DIR.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
