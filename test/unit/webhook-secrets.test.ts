import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, isWebhookSecret } from '#core/webhooks/secrets';

const secretOf = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;

describe('webhook secrets', () => {
  it('are generated as whsec_ and the base64 of 32 random bytes, each different, usable by Standard Webhooks', () => {
    const [one, two] = [generateWebhookSecret(), generateWebhookSecret()];
    expect(one).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(one.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(one).not.toBe(two);
    expect(isWebhookSecret(one)).toBe(true);
    const payload = '{"type":"webhook.test"}';
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    const signature = new Webhook(one).sign('evt_1', new Date(Number(headers['webhook-timestamp']) * 1000), payload);
    expect(new Webhook(one).verify(payload, { ...headers, 'webhook-signature': signature })).toEqual({ type: 'webhook.test' });
  });

  it.each([
    ['24 bytes', secretOf(24), true],
    ['64 bytes', secretOf(64), true],
    ['23 bytes', secretOf(23), false],
    ['65 bytes', secretOf(65), false],
    ['no whsec_ prefix', randomBytes(32).toString('base64'), false],
    ['unpadded base64', secretOf(32).replace(/=+$/, ''), false],
    ['URL-safe base64', `whsec_${'ab-_'.repeat(11)}`, false],
    ['not base64', `whsec_${'!'.repeat(44)}`, false],
    ['whitespace', `${secretOf(32)} `, false],
    ['a plain password', 'whsec_hunter2', false],
  ])('a client secret of %s: %p', (_what, secret, accepted) => {
    expect(isWebhookSecret(secret)).toBe(accepted);
  });
});
