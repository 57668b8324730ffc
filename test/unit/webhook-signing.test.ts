import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signatureHeaders } from '#core/webhooks/signing';

const now = new Date('2026-03-01T12:00:00Z');
const current = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const previous = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
const message = {
  eventId: 'evt_01JN0000000000000000000000',
  eventType: 'workspace.updated',
  body: '{"id":"evt_01JN0000000000000000000000","data":{"name":"é"}}',
};

/** A receiver's check of the spec's header, written independently: any listed hex digest of `<timestamp>.<body>` keyed with the secret string. */
function hexVerifies(secret: string, headers: Record<string, string>, body: string): boolean {
  const expected = createHmac('sha256', secret).update(`${headers['X-Webhook-Timestamp']}.${body}`).digest();
  return headers['X-Webhook-Signature']!.split(',').some((hex) => {
    const given = Buffer.from(hex, 'hex');
    return /^[0-9a-f]{64}$/.test(hex) && timingSafeEqual(given, expected);
  });
}

/** standardwebhooks checks the timestamp against the real clock: verify as of the send's time. */
function standardVerifies(secret: string, headers: Record<string, string>, body: string): boolean {
  jest.useFakeTimers({ now, doNotFake: ['nextTick', 'setImmediate'] });
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  } finally {
    jest.useRealTimers();
  }
}

describe('delivery signatures', () => {
  it('carry the spec headers and the Standard Webhooks headers, both verifiable', () => {
    const headers = signatureHeaders({ secret: current }, message, now);
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Webhook-Id': message.eventId,
      'X-Webhook-Event': 'workspace.updated',
      'X-Webhook-Timestamp': String(now.getTime() / 1000),
      'webhook-id': message.eventId,
      'webhook-timestamp': String(now.getTime() / 1000),
    });
    expect(headers['X-Webhook-Signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(hexVerifies(current, headers, message.body)).toBe(true);
    expect(standardVerifies(current, headers, message.body)).toBe(true);
  });

  it('fail to verify with another secret or another body', () => {
    const headers = signatureHeaders({ secret: current }, message, now);
    expect(hexVerifies(previous, headers, message.body)).toBe(false);
    expect(standardVerifies(previous, headers, message.body)).toBe(false);
    expect(hexVerifies(current, headers, `${message.body} `)).toBe(false);
    expect(standardVerifies(current, headers, `${message.body} `)).toBe(false);
  });

  it('during a rotation grace period carry both signatures, so either secret verifies with either scheme', () => {
    const secrets = { secret: current, previousSecret: previous, previousSecretExpiresAt: '2026-03-02T12:00:00Z' };
    const headers = signatureHeaders(secrets, message, now);
    expect(headers['X-Webhook-Signature']).toMatch(/^[0-9a-f]{64},[0-9a-f]{64}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [current, previous]) {
      expect(hexVerifies(secret, headers, message.body)).toBe(true);
      expect(standardVerifies(secret, headers, message.body)).toBe(true);
    }
  });

  it('after the grace period carry the current signature only', () => {
    const secrets = { secret: current, previousSecret: previous, previousSecretExpiresAt: '2026-03-01T11:59:59Z' };
    const headers = signatureHeaders(secrets, message, now);
    expect(hexVerifies(previous, headers, message.body)).toBe(false);
    expect(standardVerifies(previous, headers, message.body)).toBe(false);
    expect(hexVerifies(current, headers, message.body)).toBe(true);
  });
});
