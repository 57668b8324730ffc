import { generateApiKey, keyDigest, parseApiKey } from '#core/api-keys/api-key-format';

describe('API key format', () => {
  it('generates sk_{environment}_ keys of 32 base62 characters', () => {
    const live = generateApiKey('live');
    const test = generateApiKey('test');
    expect(live).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(test).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(generateApiKey('live')).not.toBe(live);
  });

  it('finds the environment and the lookup prefix of a key', () => {
    expect(parseApiKey('sk_test_abcdefgh012345678901234567890123')).toEqual({ environment: 'test', prefix: 'sk_test_abcdefgh' });
  });

  it('refuses anything that is not a well-formed key', () => {
    for (const bad of [
      '',
      'sk_live_short',
      'pk_live_abcdefgh012345678901234567890123',
      'sk_prod_abcdefgh012345678901234567890123',
      'sk_live_abcdefgh01234567890123456789012!',
      'sk_live_abcdefgh0123456789012345678901234',
    ]) {
      expect(parseApiKey(bad)).toBeUndefined();
    }
  });

  it('digests keys for the in-memory cache without keeping them', () => {
    expect(keyDigest('sk_live_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(keyDigest('sk_live_x')).not.toBe(keyDigest('sk_live_y'));
  });
});
