/** Where the documentation pages live; the login page sends the user back only under it. */
export const docsRoot = '/api/docs';

/**
 * The page to return to after the login page, if `requested` is one of ours: a relative
 * path under /api/docs, nothing that a browser could read as another origin (`//host`,
 * `/\host`, a scheme) or a path outside (`..`). Anything else returns to /api/docs: the
 * login page is never an open redirect.
 */
export function safeReturnPath(requested: string | undefined): string {
  if (!requested) return docsRoot;
  let decoded: string;
  try {
    decoded = decodeURIComponent(requested);
  } catch {
    return docsRoot;
  }
  const underDocs = requested === docsRoot || requested.startsWith(`${docsRoot}/`) || requested.startsWith(`${docsRoot}?`);
  const plain = /^[A-Za-z0-9/_.?=&%-]*$/.test(requested) && !/[\\]|\/\/|\.\./.test(decoded);
  return underDocs && plain ? requested : docsRoot;
}
