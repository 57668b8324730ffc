/**
 * Hosts of pixel sites. A claim, an `Origin`, a `Referer` and a tracked `url` are compared
 * by their host alone: lower case, internationalised names in punycode (as `new URL` writes
 * them), without port, so that `Example.com`, `example.com:8080` and `https://example.com/x`
 * are one site. `www.example.com` and `example.com` are two.
 */

/** The longest host DNS allows. */
const maxHostLength = 253;

/** A claim as a client writes it: a bare host, no scheme, port, path or credentials. */
const bareHost = /^[^\s/:@?#\\]+$/;

/** The host a claimed domain stands for, or undefined when it is not a bare host name. */
export function claimedHost(domain: string): string | undefined {
  if (!bareHost.test(domain) || domain.endsWith('.')) return undefined;
  const host = hostOf(`http://${domain}`);
  return host && host.length <= maxHostLength ? host : undefined;
}

/** The host of an absolute http(s) URL or origin, or undefined for anything else (`null`, `file:`, junk). */
export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}
