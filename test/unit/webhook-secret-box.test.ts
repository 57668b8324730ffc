import { UnreadableSecret } from '#core/ports/webhook-secrets';
import { generateSecretKey, webhookSecretBox } from '#core/webhooks/secret-box';
import { generateWebhookSecret } from '#core/webhooks/secrets';

const [oldKey, newKey] = [generateSecretKey(), generateSecretKey()];
const secret = generateWebhookSecret();
const endpoint = 'wh_01JABCDEFGHJKMNPQRSTVWXYZ0';

const unreadable = (open: () => string) => expect(open).toThrow(UnreadableSecret);

describe('sealing webhook secrets', () => {
  it('seals in the versioned format, naming its key, with a fresh IV each time, and opens again', () => {
    const box = webhookSecretBox([oldKey]);
    const [one, two] = [box.seal(secret, endpoint, 'secret'), box.seal(secret, endpoint, 'secret')];
    expect(one).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(one).not.toBe(two);
    expect(one.split('.')[1]).toBe(two.split('.')[1]);
    expect(box.open(one, endpoint, 'secret')).toBe(secret);
    // The same key has the same id in another process.
    expect(webhookSecretBox([oldKey]).open(two, endpoint, 'secret')).toBe(secret);
    for (const form of [secret, secret.slice(6), Buffer.from(secret.slice(6), 'base64').toString('base64url')])
      expect(one).not.toContain(form);
  });

  it('opens a ciphertext only for the endpoint and the field it was sealed for', () => {
    const box = webhookSecretBox([oldKey]);
    const sealed = box.seal(secret, endpoint, 'secret');
    unreadable(() => box.open(sealed, 'wh_01JABCDEFGHJKMNPQRSTVWXYZ1', 'secret'));
    unreadable(() => box.open(sealed, endpoint, 'previousSecret'));
    unreadable(() => box.open(box.seal(secret, endpoint, 'previousSecret'), endpoint, 'secret'));
  });

  it('refuses an altered, truncated, unversioned or missing ciphertext', () => {
    const box = webhookSecretBox([oldKey]);
    const sealed = box.seal(secret, endpoint, 'secret');
    const parts = sealed.split('.');
    const flipped = (part: string) => (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
    for (const index of [2, 3, 4])
      unreadable(() => box.open(parts.map((part, i) => (i === index ? flipped(part) : part)).join('.'), endpoint, 'secret'));
    unreadable(() => box.open(parts.slice(0, 4).join('.'), endpoint, 'secret'));
    unreadable(() => box.open(['v2', ...parts.slice(1)].join('.'), endpoint, 'secret'));
    unreadable(() => box.open(secret, endpoint, 'secret'));
    unreadable(() => box.open(undefined, endpoint, 'secret'));
  });

  it('rotates its key: the first key seals, every listed key opens, a key no longer listed opens nothing', () => {
    const before = webhookSecretBox([oldKey]).seal(secret, endpoint, 'secret');
    const both = webhookSecretBox([newKey, oldKey]);
    expect(both.open(before, endpoint, 'secret')).toBe(secret);
    const after = both.seal(secret, endpoint, 'secret');
    expect(after.split('.')[1]).not.toBe(before.split('.')[1]);
    const onlyNew = webhookSecretBox([newKey]);
    expect(onlyNew.open(after, endpoint, 'secret')).toBe(secret);
    unreadable(() => onlyNew.open(before, endpoint, 'secret'));
  });
});
