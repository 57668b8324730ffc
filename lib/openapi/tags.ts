/**
 * The tags of openapi.yaml (one per resource, as the route tables name them) with what each
 * groups, and `x-tagGroups` (Redoc's and Scalar's sidebar sections). A route's tag without a
 * description here stops `npm run openapi`: every tag says what it is.
 */
const tagDescriptions: Record<string, string> = {
  Sessions:
    'Accounts without a credential yet: register, verify an email, reset a forgotten password, and sign in (`POST /login` sets the session cookie and its XSRF-TOKEN) or out. These live at the base URL, outside `/api/v1`.',
  Users:
    'Your own account (`/user`): its name, email, password and the invitations waiting for you; and the members of the acting workspace, listed or invited by email.',
  'User tokens':
    'Personal tokens `<id>|<secret>` for scripts that act as you, with abilities (scopes) of their own; issued and revoked with a session or another token.',
  'API keys':
    'Keys `sk_live_…` and `sk_test_…` of a workspace: created with scopes, IP allowlist and expiry; rotated with a grace period in which the old key still works; revoked. The secret is shown once.',
  OAuth:
    'OAuth 2.0 for third-party clients, where the operator turns it on: the authorization code grant with PKCE and a consent page, client credentials, refresh tokens and revocation (RFC 6749, 7636, 7009).',
  Workspaces:
    'The tenants: every resource belongs to one. List the workspaces you are a member of, create one (you become its owner), rename or delete it. Act in another of yours with X-Workspace-ID.',
  Namespaces:
    "Where entitlements are counted: your own namespace and your workspaces' default ones, each with its packages. Read them and check an entitlement in one (X-Namespace-ID picks one for other calls).",
  Entitlements:
    "What the workspace's tier and packages allow: check whether a quantity more of a feature fits, record usage atomically, read the summary and the month's usage.",
  Admin: "Platform operators only: change a workspace's tier, suspend and resume it, grant and withdraw packages, forget a pixel domain.",
  Posts: 'Content: posts with a draft, published and archived life, categories, and a content field only `posts:read-content` shows.',
  Categories: 'Content: the categories posts are filed under.',
  Batch: 'Several content operations in one request, each answered on its own.',
  SEO: "SEO reports a crawler submits for a site, and the issues found in the workspace's pages.",
  Webhooks:
    'Endpoints that receive the events of the workspace, signed (X-Webhook-Signature and Standard Webhooks): create, test, rotate the secret, and inspect or retry their deliveries.',
  Events: 'What a subscribed webhook endpoint receives: one POST per event, signed, retried on a ladder until it answers 2XX.',
  MCP: "The Model Context Protocol: the service's operations as tools grouped in servers, its records as resources, and the protocol endpoint (Streamable HTTP) for agents.",
  Pixel:
    "Page-view tracking from websites: the tracker's configuration and the beacon it sends (public, any origin), and the statistics a workspace reads.",
};

/** Sidebar sections, in reading order: from getting a credential to integrating. */
const tagGroups: Record<string, readonly string[]> = {
  'Accounts and access': ['Sessions', 'Users', 'User tokens', 'API keys', 'OAuth'],
  Tenancy: ['Workspaces', 'Namespaces', 'Entitlements', 'Admin'],
  Content: ['Posts', 'Categories', 'Batch', 'SEO'],
  Integrations: ['Webhooks', 'Events', 'MCP', 'Pixel'],
};

/** The tag objects of `names`, in group order; a tag no group holds comes last, under Other. */
export function tagsOf(names: readonly string[]) {
  const missing = names.filter((name) => !tagDescriptions[name]);
  if (missing.length) throw new Error(`Describe the tag(s) ${missing.join(', ')} in lib/openapi/tags.ts`);
  const grouped = Object.values(tagGroups).flat();
  const ordered = [...grouped.filter((name) => names.includes(name)), ...names.filter((name) => !grouped.includes(name))];
  const groups = Object.entries(tagGroups)
    .map(([name, tags]) => ({ name, tags: tags.filter((tag) => names.includes(tag)) }))
    .filter((group) => group.tags.length);
  const others = names.filter((name) => !grouped.includes(name));
  return {
    tags: ordered.map((name) => ({ name, description: tagDescriptions[name] })),
    'x-tagGroups': others.length ? [...groups, { name: 'Other', tags: others }] : groups,
  };
}
