import ipaddr from 'ipaddr.js';

/** Parses an IP or CIDR range, v4 or v6; undefined when it is neither. */
export function parseIpRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
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
    const [base, bits] = range;
    const candidate = base.kind() === 'ipv4' ? ipaddr.process(base.toString()) : base;
    return address.kind() === candidate.kind() && address.match([candidate, bits] as never);
  });
}
