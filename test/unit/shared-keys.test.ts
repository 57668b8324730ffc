type SharedKey = typeof import('#core/platform/config').sharedKey;

/** sharedKey (functions/core/platform/config.ts) reads config(), parsed once per module instance: each case loads its own, in its environment. */
async function inEnvironment(env: NodeJS.ProcessEnv, use: (sharedKey: SharedKey) => void): Promise<void> {
  const saved = process.env;
  process.env = { ...env };
  try {
    await jest.isolateModulesAsync(async () => use((await import('#core/platform/config')).sharedKey));
  } finally {
    process.env = saved;
  }
}

describe('the keys every process must share (cursor signing, pixel hashing)', () => {
  it('are the configured ones', () =>
    inEnvironment({ CURSOR_SIGNING_KEY: 'k'.repeat(40) }, (sharedKey) => {
      expect(sharedKey('CURSOR_SIGNING_KEY')).toBe('k'.repeat(40));
    }));

  it('outside Lambda, unset, are drawn once per process and kept', () =>
    inEnvironment({}, (sharedKey) => {
      const drawn = sharedKey('PIXEL_HASH_KEY');
      expect(drawn).toHaveLength(32);
      expect(sharedKey('PIXEL_HASH_KEY')).toBe(drawn);
      expect(sharedKey('CURSOR_SIGNING_KEY')).not.toEqual(drawn);
    }));

  it('in Lambda, unset, fail naming the key: a function must not sign with a key no other process has', () =>
    inEnvironment({ AWS_LAMBDA_FUNCTION_NAME: 'TenantApi-Content' }, (sharedKey) => {
      expect(() => sharedKey('CURSOR_SIGNING_KEY')).toThrow(
        /CURSOR_SIGNING_KEY is not set: the function's definition must declare its key/,
      );
    }));
});
