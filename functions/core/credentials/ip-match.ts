import { BlockList, isIP } from 'node:net';

/**
 * Matching client addresses on the authorizer's hot path with Node's own BlockList, so the
 * authorizer bundles no address library (ip-allowlist.ts parses and compares lists with
 * ipaddr.js where keys are created). Both read an IPv4-mapped IPv6 address or range
 * (`::ffff:10.0.0.0/104`) as the IPv4 one it stands for, and nothing else across families.
 */

/** The eight 16-bit groups of an IPv6 address in text, an embedded IPv4 tail included. */
function ipv6Groups(text: string): number[] {
  let head = text.split('%')[0]!;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(head);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push(a * 256 + b, c * 256 + d);
    head = head.slice(0, -dotted[0].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const groupsOf = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [left, right] = head.split('::');
  const known = [...groupsOf(left), ...(right === undefined ? [] : groupsOf(right))];
  const zeros = Array<number>(8 - known.length - tail.length).fill(0);
  return right === undefined ? [...known, ...tail] : [...groupsOf(left), ...zeros, ...groupsOf(right), ...tail];
}

const isMapped = (groups: number[]) => groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;

/** Is the address (or range base) IPv4, or IPv4-mapped IPv6? undefined when it is no address. */
function readsAsIpv4(address: string): boolean | undefined {
  const family = isIP(address);
  if (!family) return undefined;
  return family === 4 || isMapped(ipv6Groups(address));
}

/** Is `ip` inside one of the ranges (`address` or `address/bits`, v4 or v6)? */
export function ipAllowed(ip: string, ranges: readonly string[]): boolean {
  const clientV4 = readsAsIpv4(ip);
  if (clientV4 === undefined) return false;
  const list = new BlockList();
  for (const entry of ranges) {
    const [base = '', bits] = entry.split('/');
    const family = isIP(base);
    const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
    if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) continue;
    // A mapped range stands for IPv4 only when its prefix covers the mapping (96 bits).
    const rangeV4 = family === 4 || (prefix >= 96 && isMapped(ipv6Groups(base)));
    if (rangeV4 === clientV4) list.addSubnet(base, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list.check(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whom a client address stands for when counting failures: an IPv4 address (a mapped one
 * as its IPv4 form), or an IPv6 client's /64, the least any IPv6 client is given.
 */
export function clientOf(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = ipv6Groups(ip);
  if (isMapped(groups)) return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
