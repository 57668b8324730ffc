import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses an IP or CIDR range, v4 or v6; undefined when it is neither. */
function parseIpRange(entry: string): Range | undefined {
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

/** Does `outer` hold every address `inner` holds, as ipAllowed (ip-match.ts) matches them? */
function contains(outer: Range, inner: Range): boolean {
  const [oBase, oBits] = unmapped(outer);
  const [iBase, iBits] = unmapped(inner);
  return oBase.kind() === iBase.kind() && iBits >= oBits && iBase.match([oBase, oBits] as never);
}

/** Is the range `entry` inside one of `ranges`? */
export function ipRangeCovered(entry: string, ranges: readonly string[]): boolean {
  const inner = parseIpRange(entry);
  return (
    !!inner &&
    ranges.some((range) => {
      const outer = parseIpRange(range);
      return !!outer && contains(outer, inner);
    })
  );
}

/**
 * The addresses both lists allow, as a list. Two CIDR ranges are either nested or
 * disjoint, so the overlap of two entries is the narrower one or nothing.
 */
export const commonIpRanges = (a: readonly string[], b: readonly string[]): string[] => [
  ...new Set([...a.filter((entry) => ipRangeCovered(entry, b)), ...b.filter((entry) => ipRangeCovered(entry, a))]),
];
