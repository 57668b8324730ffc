import { escapeHtml, htmlPage } from '#core/platform/html';

export type MailedLink = 'verify' | 'change';

const prompts: Record<MailedLink, { title: string; text: string; button: string }> = {
  verify: {
    title: 'Verify your email address',
    text: 'Press the button to verify the email address of your account.',
    button: 'Verify my email address',
  },
  change: {
    title: 'Confirm your new email address',
    text: 'Press the button to make this address the email of your account.',
    button: 'Make it my email address',
  },
};

/**
 * What a mailed link opens: a page whose button posts to the link itself, so that a mail
 * scanner opening it (GET, HEAD) changes nothing; the link's path authorises the press.
 */
export function linkPage(link: MailedLink, formAction: string): string {
  const { title, text, button } = prompts[link];
  return htmlPage(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<form method="post" action="${escapeHtml(formAction)}">
<button type="submit">${escapeHtml(button)}</button>
</form>`,
  );
}

/** What pressing the button did, or why it did nothing. */
export const linkResultPage = (title: string, message: string): string =>
  htmlPage(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
