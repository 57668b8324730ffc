import { commonIpRanges, ipRangeCovered } from '#core/access/ip-allowlist';
import { clientOf, ipAllowed } from '#core/credentials/ip-match';

describe('matching a client address', () => {
  it.each([
    ['127.0.0.1', ['127.0.0.1/32'], true],
    ['::ffff:127.0.0.1', ['127.0.0.1'], true],
    ['127.0.0.1', ['::ffff:127.0.0.1'], true],
    ['127.0.0.1', ['::ffff:7f00:0/104'], true],
    ['127.0.0.1', ['::/0'], false],
    ['::1', ['0.0.0.0/0'], false],
    ['::1', ['::/0'], true],
    ['2001:db8::5', ['2001:db8::/32'], true],
    ['2001:db9::5', ['2001:db8::/32'], false],
    ['10.1.2.3', ['192.168.0.0/16', '10.0.0.0/8'], true],
    ['not an address', ['0.0.0.0/0'], false],
  ])('%s against %j: %p', (ip, ranges, allowed) => {
    expect(ipAllowed(ip, ranges)).toBe(allowed);
  });
});

describe('whom failures count against', () => {
  it('is an IPv4 address as such, a mapped one as its IPv4 form, and an IPv6 client by its /64', () => {
    expect(clientOf('192.0.2.1')).toBe('192.0.2.1');
    expect(clientOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
  });
});

describe('IP lists within IP lists', () => {
  it('holds a range inside a wider one of the same family, mapped IPv4 counted as IPv4', () => {
    expect(ipRangeCovered('127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(ipRangeCovered('::ffff:127.0.0.1', ['127.0.0.1/32'])).toBe(true);
    expect(ipRangeCovered('127.0.0.0/8', ['127.0.0.1/32'])).toBe(false);
    expect(ipRangeCovered('0.0.0.0/0', ['127.0.0.1/32'])).toBe(false);
    expect(ipRangeCovered('::/0', ['127.0.0.1/32'])).toBe(false);
  });

  it('takes the overlap of two lists as the narrower of each nested pair', () => {
    expect(commonIpRanges(['10.0.0.0/8', '127.0.0.0/8'], ['127.0.0.1/32'])).toEqual(['127.0.0.1/32']);
    expect(commonIpRanges(['10.1.0.0/16'], ['10.0.0.0/8', '::1'])).toEqual(['10.1.0.0/16']);
    expect(commonIpRanges(['10.0.0.0/8'], ['192.168.0.0/16'])).toEqual([]);
  });
});
