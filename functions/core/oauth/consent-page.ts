import { escapeHtml, htmlPage } from '#core/platform/html';
import type { ConsentPage } from './consent.ts';

const actions: Record<string, string> = {
  read: 'Read',
  write: 'Create and change',
  delete: 'Delete',
  '*': 'Do anything with',
  'read-content': 'Read the content of',
};

/** A scope in words: `api-keys:read` is "Read API keys". */
function describeScope(scope: string): string {
  if (scope === '*' || scope === 'admin:*') return 'Everything your account can do';
  const [resource = '', action = ''] = scope.split(':');
  const what = resource === '*' ? 'everything' : resource.replace('api-keys', 'API keys').replaceAll('-', ' ');
  return `${actions[action] ?? action} ${what}`;
}

/** The consent page: who asks, for what, and an Allow / Deny form that carries the one-time ticket. */
export function renderConsentPage(page: ConsentPage, formAction: string): string {
  const name = escapeHtml(page.client.name);
  const scopes = page.scopes.map((scope) => `<li>${escapeHtml(describeScope(scope))} <code>${escapeHtml(scope)}</code></li>`).join('');
  return htmlPage(
    `Authorize ${page.client.name}`,
    `<h1>Authorize ${name}?</h1>
<p><strong>${name}</strong> asks to act for you in its workspace, with these permissions:</p>
<ul>${scopes}</ul>
<p>You will be sent back to <code>${escapeHtml(new URL(page.redirectUri).origin)}</code>.</p>
<form method="post" action="${escapeHtml(formAction)}">
<input type="hidden" name="consent_ticket" value="${escapeHtml(page.ticket)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}
