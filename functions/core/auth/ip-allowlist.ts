import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses an IP or CIDR range, v4 or v6; undefined when it is neither. */
export function parseIpRange(entry: string): Range | undefined {
  // ipaddr.js also reads octal, hex and short IPv4 forms (012.0.0.1 is 10.0.0.1): only the
  // usual dotted-decimal and IPv6 spellings are accepted, so a list means what it says.
  if (!isIP(entry.split('/')[0]!)) return undefined;
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

/** An IPv4-mapped IPv6 range (`::ffff:10.0.0.0/104`) as the IPv4 range it stands for. */
function unmapped([base, bits]: Range): Range {
  if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(base as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [base, bits];
}

export const isIpRange = (entry: string): boolean => parseIpRange(entry) !== undefined;

/** Is `ip` inside one of the ranges? IPv4-mapped IPv6 addresses count as their IPv4 form. */
export function ipAllowed(ip: string, ranges: readonly string[]): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip);
  } catch {
    return false;
  }
  return ranges.some((entry) => {
    const range = parseIpRange(entry);
    if (!range) return false;
    const [base, bits] = unmapped(range);
    return address.kind() === base.kind() && address.match([base, bits] as never);
  });
}
