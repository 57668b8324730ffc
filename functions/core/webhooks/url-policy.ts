import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ValidationFailed } from '#core/platform/errors';

/**
 * Where a webhook may be sent (docs/webhooks.md, Webhook endpoints and secrets): an `https://`
 * URL whose host resolves only to public unicast addresses, checked when set and at every send.
 * The delivery agent classifies the address it connects to with the same ipaddr.js, so that
 * what this accepts is what it connects to.
 */

/** Every address a host name resolves to. */
export type Lookup = (hostname: string) => Promise<readonly string[]>;

const systemLookup: Lookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((found) => found.address);

/** A resolver that does not answer within this time leaves the URL refused, not the request hanging. */
const lookupTimeoutMs = 5_000;

/**
 * IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291): ipaddr.js calls it unicast,
 * but it only ever names an IPv4 address (`::127.0.0.1`), so it is refused whatever it embeds.
 */
const ipv4Compatible = ipaddr.parseCIDR('::/96');

/** How a refusal names ipaddr.js's ranges; any other range but `unicast` is "special-purpose". */
const rangeNames: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (where cloud metadata services answer)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  reserved: 'a reserved address',
  uniqueLocal: 'a unique-local address',
  rfc6052: 'a NAT64 address',
  rfc6145: 'an IPv4-translated IPv6 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** What kind of forbidden address `parsed` is, by its range, or undefined when it is public unicast. */
function rangeProblem(parsed: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = parsed.range();
  if (range !== 'unicast') return rangeNames[range] ?? `a special-purpose address (${range})`;
  if (parsed.kind() === 'ipv6' && parsed.match(ipv4Compatible)) return 'an IPv4-compatible IPv6 address';
  return undefined;
}

/**
 * What kind of address a webhook may not reach `address` is, or undefined when it is public
 * unicast. Parsed as the delivery agent parses it (ipaddr.parse), so that what is accepted
 * here is what the agent connects to.
 */
function addressProblem(address: string): string | undefined {
  if (!isIP(address)) return 'no IP address';
  const parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) {
    // The agent refuses every IPv4-mapped address (`::ffff:1.1.1.1`); name what a forbidden one maps, else ask for the IPv4 form.
    const ipv4 = parsed.toIPv4Address();
    return rangeProblem(ipv4) ?? `an IPv4-mapped IPv6 address, to which nothing is ever sent: use the IPv4 address ${ipv4} itself`;
  }
  return rangeProblem(parsed);
}

/** Whether a webhook may never be sent to `address`: anything but a public unicast IP address. */
export const isForbiddenAddress = (address: string): boolean => addressProblem(address) !== undefined;

export interface UrlPolicy {
  /** WEBHOOK_ALLOW_INSECURE (local use): `http://` and any address are accepted. */
  allowInsecure: boolean;
  lookup?: Lookup;
}

const refusal = (why: string) => new ValidationFailed({ url: [why] });

/**
 * Checks a webhook URL against the policy and answers it as the WHATWG parser reads it
 * (what is stored and sent to: `https://0x7f.1/` is `https://127.0.0.1/`), or throws 422
 * naming the rule it breaks. A name must resolve, and every address it resolves to must be
 * allowed: one private address among public ones is enough to refuse it.
 */
export async function checkWebhookUrl(raw: string, { allowInsecure, lookup = systemLookup }: UrlPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refusal('must be an absolute URL, e.g. https://example.com/webhooks');
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
    throw refusal(allowInsecure ? 'must be an http:// or https:// URL' : 'must be an https:// URL');
  }
  if (url.username || url.password) throw refusal('must not carry a user name or password');
  // Port 0 names no port: it would be stored as given but sent to the scheme's default port.
  if (url.port === '0') throw refusal('must not use port 0: give a port from 1 to 65535, or none for the default');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    const problem = allowInsecure ? undefined : addressProblem(host);
    if (problem) throw refusal(`must not point to ${problem} (${host})`);
    return url;
  }
  const addresses = await resolve(host, lookup);
  // Neither the address nor its kind is named: answers saying what names resolve to would map the resolver's private zones, one name at a time.
  if (!allowInsecure && addresses.some(isForbiddenAddress))
    throw refusal(`has a host name, ${host}, that resolves to a non-public address`);
  return url;
}

async function resolve(host: string, lookup: Lookup): Promise<readonly string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(refusal(`has a host name, ${host}, that did not resolve within ${lookupTimeoutMs / 1000} seconds`)),
      lookupTimeoutMs,
    );
  });
  try {
    const addresses = await Promise.race([lookup(host), timeout]);
    if (!addresses.length) throw refusal(`has a host name, ${host}, that resolves to no address`);
    return addresses;
  } catch (error) {
    if (error instanceof ValidationFailed) throw error;
    throw refusal(`has a host name, ${host}, that does not resolve`);
  } finally {
    clearTimeout(timer);
  }
}
