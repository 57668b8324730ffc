import { checkWebhookUrl, isForbiddenAddress, type Lookup } from '#core/webhooks/url-policy';
import { errorOf } from '../support/errors.ts';

const secure = { allowInsecure: false };
const insecure = { allowInsecure: true };

/** A resolver that knows a few names, as DNS would answer them. */
const zone: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'split.example.com': ['93.184.216.34', '10.0.0.7'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'mapped-public.example.com': ['::ffff:1.1.1.1'],
  'metadata.example.com': ['169.254.169.254'],
  'empty.example.com': [],
};
const fakeLookup: Lookup = async (host) => {
  const found = zone[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

/** The 422's message for `url`, or undefined when the policy accepts it. */
async function refusalOf(url: string, policy: { allowInsecure: boolean; lookup?: Lookup } = { ...secure, lookup: fakeLookup }) {
  try {
    await checkWebhookUrl(url, policy);
    return undefined;
  } catch (error) {
    const refused = await errorOf(Promise.reject(error));
    expect({ status: refused.status, errorCode: refused.errorCode }).toEqual({ status: 422, errorCode: 'VALIDATION_FAILED' });
    return (refused.extras.errors as Record<string, string[]>).url!.join(' ');
  }
}

describe('the webhook URL policy', () => {
  it.each([
    ['loopback', 'https://127.0.0.1/hook', 'loopback'],
    ['loopback, elsewhere in 127/8', 'https://127.8.9.10/hook', 'loopback'],
    ['loopback, short form', 'https://127.1/hook', 'loopback'],
    ['loopback, decimal', 'https://2130706433/hook', 'loopback'],
    ['loopback, hex', 'https://0x7f000001/hook', 'loopback'],
    ['loopback, hex parts', 'https://0x7f.1/hook', 'loopback'],
    ['loopback, octal', 'https://0177.0.0.1/hook', 'loopback'],
    ['loopback, octal whole', 'https://017700000001/hook', 'loopback'],
    ['loopback, trailing dot', 'https://127.0.0.1./hook', 'loopback'],
    ['loopback, percent-encoded', 'https://%31%32%37.0.0.1/hook', 'loopback'],
    ['loopback, full-width dots', 'https://127\u30020\u30020\u30021/hook', 'loopback'],
    ['IPv6 loopback', 'https://[::1]/hook', 'loopback'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['IPv4-mapped loopback, long form', 'https://[0:0:0:0:0:ffff:7f00:1]/hook', 'loopback'],
    ['IPv4-compatible loopback', 'https://[::127.0.0.1]/hook', 'IPv4-compatible'],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/hook', 'private'],
    ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/hook', 'link-local'],
    [
      'IPv4-mapped public, which the delivery agent would refuse',
      'https://[::ffff:1.1.1.1]/hook',
      'IPv4-mapped IPv6 address, to which nothing is ever sent: use the IPv4 address 1.1.1.1 itself',
    ],
    ['IPv4-mapped public, in hex', 'https://[::ffff:101:101]/hook', 'use the IPv4 address 1.1.1.1 itself'],
    ['IPv4-compatible public', 'https://[::1.1.1.1]/hook', 'IPv4-compatible'],
    ['IPv4-translated public', 'https://[::ffff:0:1.1.1.1]/hook', 'IPv4-translated'],
    ['NAT64 of a public address', 'https://[64:ff9b::1.1.1.1]/hook', 'NAT64'],
    ['6to4 of a public address', 'https://[2002:101:101::1]/hook', '6to4'],
    ['private 10/8', 'https://10.1.2.3/hook', 'private'],
    ['private 172.16/12', 'https://172.16.0.1/hook', 'private'],
    ['private 172.16/12, top', 'https://172.31.255.255/hook', 'private'],
    ['private 192.168/16', 'https://192.168.1.1/hook', 'private'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['container metadata', 'https://169.254.170.2/v2/credentials', 'link-local'],
    ['link-local IPv6', 'https://[fe80::1]/hook', 'link-local'],
    ['unique-local', 'https://[fc00::1]/hook', 'unique-local'],
    ['AWS IPv6 metadata', 'https://[fd00:ec2::254]/latest/meta-data/', 'unique-local'],
    ['CGNAT', 'https://100.64.0.1/hook', 'carrier-grade NAT'],
    ['CGNAT, top', 'https://100.127.255.255/hook', 'carrier-grade NAT'],
    ['unspecified', 'https://0.0.0.0/hook', 'unspecified'],
    ['unspecified, as 0', 'https://0/hook', 'unspecified'],
    ['IPv6 unspecified', 'https://[::]/hook', 'unspecified'],
    ['broadcast', 'https://255.255.255.255/hook', 'broadcast'],
    ['multicast', 'https://224.0.0.1/hook', 'multicast'],
    ['IPv6 multicast', 'https://[ff02::1]/hook', 'multicast'],
    ['reserved', 'https://240.0.0.1/hook', 'reserved'],
    ['documentation range', 'https://192.0.2.1/hook', 'reserved'],
    ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/hook', 'NAT64'],
    ['6to4 of loopback', 'https://[2002:7f00:1::]/hook', '6to4'],
    ['Teredo', 'https://[2001::1]/hook', 'Teredo'],
  ])('refuses %s: %s', async (_what, url, reason) => {
    expect(await refusalOf(url)).toContain(reason);
  });

  it.each([
    ['a private address among public ones', 'https://split.example.com/hook', 'split.example.com'],
    ['a mapped loopback address', 'https://mapped.example.com/hook', 'mapped.example.com'],
    ['the metadata address', 'https://metadata.example.com/hook', 'metadata.example.com'],
    ['an IPv4-mapped public address', 'https://mapped-public.example.com/hook', 'mapped-public.example.com'],
  ])('refuses a name resolving to %s, naming neither the address nor its kind', async (_what, url, host) => {
    expect(await refusalOf(url)).toBe(`has a host name, ${host}, that resolves to a non-public address`);
  });

  it('refuses localhost, which the system resolver answers with 127.0.0.1', async () => {
    expect(await refusalOf('https://localhost/hook', secure)).toBe('has a host name, localhost, that resolves to a non-public address');
    expect(await refusalOf('https://LOCALHOST:8443/hook', secure)).toBe(
      'has a host name, localhost, that resolves to a non-public address',
    );
  });

  it.each([
    ['http://', 'http://93.184.216.34/hook', 'must be an https:// URL'],
    ['another scheme', 'ftp://93.184.216.34/hook', 'must be an https:// URL'],
    ['a script', 'javascript:alert(1)', 'must be an https:// URL'],
    ['no URL', 'hooks.example.com/webhooks', 'must be an absolute URL'],
    ['no host', 'https://', 'must be an absolute URL'],
    ['a user and password', 'https://user:secret@hooks.example.com/hook', 'user name or password'],
    ['a user', 'https://user@hooks.example.com/hook', 'user name or password'],
    ['port 0', 'https://93.184.216.34:0/hook', 'must not use port 0'],
    ['port 0, zero-padded', 'https://hooks.example.com:000/hook', 'must not use port 0'],
    ['a scoped IPv6 address', 'https://[fe80::1%25eth0]/hook', 'must be an absolute URL'],
    ['a name that does not resolve', 'https://nowhere.example.com/hook', 'nowhere.example.com, that does not resolve'],
    ['a name with no address', 'https://empty.example.com/hook', 'resolves to no address'],
  ])('refuses %s', async (_what, url, reason) => {
    expect(await refusalOf(url)).toContain(reason);
  });

  it('refuses a name the system resolver does not know', async () => {
    expect(await refusalOf('https://nowhere.invalid/hook', secure)).toContain('does not resolve');
  });

  it.each([
    ['a public IPv4 address', 'https://93.184.216.34/hook', 'https://93.184.216.34/hook'],
    ['a public IPv6 address', 'https://[2606:4700:4700::1111]/hook', 'https://[2606:4700:4700::1111]/hook'],
    ['a name resolving to public addresses only', 'https://Hooks.Example.com:8443/in?x=1', 'https://hooks.example.com:8443/in?x=1'],
    ['just below CGNAT', 'https://100.63.255.255/', 'https://100.63.255.255/'],
    ['just above CGNAT', 'https://100.128.0.1/', 'https://100.128.0.1/'],
    ['just outside 172.16/12', 'https://172.32.0.1/', 'https://172.32.0.1/'],
    ['a public address in hex', 'https://0x5db8d822/', 'https://93.184.216.34/'],
  ])('accepts %s, as the URL parser reads it', async (_what, url, read) => {
    expect((await checkWebhookUrl(url, { ...secure, lookup: fakeLookup })).href).toBe(read);
  });

  describe('with WEBHOOK_ALLOW_INSECURE', () => {
    it('accepts http:// and loopback or private targets, for local receivers', async () => {
      expect((await checkWebhookUrl('http://127.0.0.1:8080/hook', insecure)).href).toBe('http://127.0.0.1:8080/hook');
      expect((await checkWebhookUrl('https://localhost/hook', insecure)).href).toBe('https://localhost/hook');
      expect((await checkWebhookUrl('https://split.example.com/', { ...insecure, lookup: fakeLookup })).host).toBe('split.example.com');
    });

    it('still refuses other schemes, credentials, and names that do not resolve', async () => {
      expect(await refusalOf('ftp://127.0.0.1/', insecure)).toContain('must be an http:// or https:// URL');
      expect(await refusalOf('http://user:pw@127.0.0.1/', insecure)).toContain('user name or password');
      expect(await refusalOf('http://127.0.0.1:0/', insecure)).toContain('port 0');
      expect(await refusalOf('http://nowhere.invalid/', insecure)).toContain('does not resolve');
    });
  });
});

describe('isForbiddenAddress, for the send-time check', () => {
  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['::127.0.0.1', true],
    ['10.0.0.1', true],
    ['169.254.169.254', true],
    ['fd00:ec2::254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['not an address', true],
    ['93.184.216.34', false],
    ['::ffff:93.184.216.34', true],
    ['2606:4700:4700::1111', false],
  ])('%s: %p', (address, forbidden) => {
    expect(isForbiddenAddress(address)).toBe(forbidden);
  });
});
