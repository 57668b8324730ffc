import { escapeHtml } from '#core/platform/html';
import type { MailMessage } from '#core/ports/mailer';

/**
 * The account mails (registration, verification, invitations, password reset, email
 * change), each one subject and a few paragraphs, rendered once as plain text and once as
 * HTML. Links are absolute, built by the caller from the service's public base URL; every
 * value (names, addresses, links) is HTML-escaped in the HTML part.
 */
export type Paragraph = string | { link: string };

function render(to: string, subject: string, paragraphs: Paragraph[]): MailMessage {
  const text = `${paragraphs.map((p) => (typeof p === 'string' ? p : p.link)).join('\n\n')}\n`;
  const html =
    '<!doctype html><html><body>' +
    paragraphs
      .map((p) => (typeof p === 'string' ? `<p>${escapeHtml(p)}</p>` : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.link)}</a></p>`))
      .join('') +
    '</body></html>';
  return { to, subject, text, html };
}

const validity = (lifetimeSeconds: number) => `The link is good for ${lifetimeSeconds / 60} minutes and works once.`;

/**
 * How long a mailed link or an invitation stays open is set where it is issued
 * (accounts/account-tokens.ts, members/invitations.ts), which this context may not import:
 * the sender passes it.
 */
export const accountMail = {
  verifyEmail: (to: string, name: string, link: string, lifetimeSeconds: number) =>
    render(to, 'Verify your email address', [
      `Hello ${name},`,
      'Open this link and press its button to verify your email address:',
      { link },
      validity(lifetimeSeconds),
    ]),

  /** To the owner of an address someone tried to register again: the account stays as it is. */
  registrationAttempt: (to: string, name: string, forgotPasswordUrl: string) =>
    render(to, 'Someone tried to register with your email address', [
      `Hello ${name},`,
      'Someone tried to create an account with this email address, which already has one. Nothing was changed.',
      `If it was you and you forgot your password, ask for a reset link with POST ${forgotPasswordUrl} and your email.`,
      'If it was not you, you need not do anything.',
    ]),

  invitation: (to: string, workspaceName: string, role: string, nextSteps: Paragraph[], lifetimeSeconds: number) =>
    render(to, `You are invited to ${workspaceName}`, [
      `You are invited to join the workspace "${workspaceName}" as ${role}. The invitation is open for ${lifetimeSeconds / 86_400} days.`,
      ...nextSteps,
    ]),

  resetPassword: (to: string, name: string, link: string, lifetimeSeconds: number) =>
    render(to, 'Reset your password', [
      `Hello ${name},`,
      'Someone asked to reset the password of your account. To choose a new one, send the token of this link with POST /reset-password:',
      { link },
      `${validity(lifetimeSeconds)} If you did not ask for it, ignore this mail.`,
    ]),

  confirmEmailChange: (to: string, name: string, link: string, lifetimeSeconds: number) =>
    render(to, 'Confirm your new email address', [
      `Hello ${name},`,
      'Open this link and press its button to make this address the email of your account:',
      { link },
      `${validity(lifetimeSeconds)} Until then your account keeps its current address.`,
    ]),

  /** To the current address while a change waits for the new one to confirm. */
  emailChangeRequested: (to: string, name: string, newEmail: string) =>
    render(to, 'Your email address is about to change', [
      `Hello ${name},`,
      `Someone signed in to your account asked to change its email to ${newEmail}. It changes only once that address confirms.`,
      'If it was not you, change your password (or reset it): that stops the change, and ends your other sessions.',
    ]),
};

/** Where links in mail point: the service's public base URL, and under it the versioned API. */
export interface AccountLinks {
  base: string;
  api: string;
}

export const accountLinks = (baseUrl: string, apiPrefix: string): AccountLinks => {
  const base = baseUrl.replace(/\/+$/, '');
  return { base, api: base + apiPrefix };
};
