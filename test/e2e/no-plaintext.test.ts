import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { bcryptHasher } from '#core/adapters/create-deps';
import { joinAsMember, linkIn, mailTo, pressLink, verifyByMail } from '../support/accounts.ts';
import { readMailbox } from '../support/mailbox.ts';
import { as, type Credential, login, mintUserToken, register } from '../support/sessions.ts';
import { startTestApiOnTable, type TableTestApi } from '../support/table-api.ts';

/**
 * A whole flow over HTTP, then the table read raw: no secret a client saw or sent may be
 * stored in any form a reader of the table could use, while the one-way forms the service
 * verifies against (bcrypt for keys and passwords, SHA-256 for tokens and sessions) are there.
 *
 * Not counted as a secret: the XSRF token. It is stored in clear in the session record by
 * design (double submit: the server compares X-XSRF-TOKEN with it), and it is no credential
 * on its own: it grants nothing without the session cookie, of which only a digest is
 * stored, and it is already readable by every script of the page (a non-HttpOnly cookie).
 */

let api: TableTestApi;
const secrets: { label: string; value: string }[] = [];
const remember = (label: string, value: string) => {
  if (!value || value.length < 8) throw new Error(`${label} is too short to search for: ${JSON.stringify(value)}`);
  secrets.push({ label, value });
};
const apiKeys: string[] = [];
const passwords: { email: string; password: string }[] = [];
const tokens: string[] = [];
const sessionIds: string[] = [];
const endedSessionIds: string[] = [];
const xsrfTokens: string[] = [];
let changedFrom = '';
const invitedOnly = 'invited-only@example.com';
/** Tokens of mailed links: in the mail folder, as the mail carries them; never in the table. */
const mailedTokens: string[] = [];
let openToken = '';

/** The token of the latest link matching `pattern` mailed to `email`, remembered as a secret. */
async function rememberMailedToken(label: string, email: string, pattern: RegExp): Promise<string> {
  const token = new URL(linkIn(await mailTo(api, email), pattern)).pathname.split('/').at(-1)!;
  mailedTokens.push(token);
  remember(label, token);
  return token;
}
let items: Record<string, unknown>[] = [];
let dump = '';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** `stored`: false for a key that has ended, which the pruning job may already have removed. */
function rememberKey(label: string, key: string, { stored = true } = {}) {
  expect(key).toMatch(/^sk_(live|test)_[0-9A-Za-z]{32}$/);
  if (stored) apiKeys.push(key);
  remember(label, key);
  // The clear prefix (sk_env_ + 8 characters) is stored by design to find the key; the rest never.
  remember(`${label} (beyond its prefix)`, key.slice(16));
}

const webhookIds: string[] = [];

/** A webhook secret in each form a receiver could sign with: as shown, its base64, and its key bytes as hex and base64url. */
function rememberWebhookSecret(label: string, secret: string) {
  expect(secret).toMatch(/^whsec_/);
  const encoded = secret.slice('whsec_'.length);
  const bytes = Buffer.from(encoded, 'base64');
  remember(label, secret);
  remember(`${label} (base64)`, encoded);
  remember(`${label} (bytes as hex)`, bytes.toString('hex'));
  remember(`${label} (bytes as base64url)`, bytes.toString('base64url'));
}

function rememberToken(label: string, token: string) {
  tokens.push(token);
  remember(label, token);
  remember(`${label} (secret part)`, token.split('|')[1]!);
}

async function loginAndRemember(label: string, email: string, password: string): Promise<Credential> {
  const { session, setCookies } = await login(api, email, password);
  expect(setCookies.length).toBe(2);
  if (session.type !== 'session') throw new Error('expected a session');
  sessionIds.push(session.sessionId);
  xsrfTokens.push(session.xsrfToken);
  remember(`${label} session cookie`, session.sessionId);
  return session;
}

beforeAll(async () => {
  // The production hasher: this file checks the stored hashes' cost.
  api = await startTestApiOnTable({ overrides: { hasher: bcryptHasher } });
  const boot = api.runner.bootstrap!;
  rememberKey('bootstrap API key', boot.apiKey);
  remember('bootstrap password', boot.password);
  passwords.push({ email: boot.email, password: boot.password });

  // Register and log in.
  const registration = { name: 'Paula', email: 'paula@example.com', password: 'paula-registers-1' };
  const registered = await register(api, registration);
  expect(registered.status).toBe(202);
  remember('registration password', registration.password);
  await rememberMailedToken('verification link token', registration.email, /\/email\/verify\//);
  await verifyByMail(api, registration.email);
  passwords.push({ email: registration.email, password: registration.password });
  const mistyped = 'paula-mistyped-password';
  remember('a mistyped login password', mistyped);
  const failed = await api.call('POST', `${api.runner.origin}/login`, { key: '', body: { email: registration.email, password: mistyped } });
  expect(failed.status).toBe(401);
  const paula = await loginAndRemember('Paula', registration.email, registration.password);
  const adminSession = await loginAndRemember('admin', boot.email, boot.password);

  // API keys, with a key in a grace period and one rotated out at once.
  // Created with an Idempotency-Key: the stored outcome, which shows the key, must not.
  const idempotencyKey = 'idempotency-key-of-the-live-key';
  const live = await api.call('POST', '/api-keys', { body: { name: 'live' }, headers: { 'Idempotency-Key': idempotencyKey } });
  rememberKey('live key', live.body.data.key);
  remember('Idempotency-Key', idempotencyKey);
  const replayed = await api.call('POST', '/api-keys', { body: { name: 'live' }, headers: { 'Idempotency-Key': idempotencyKey } });
  expect(replayed.body.data.key).toBe(live.body.data.key);
  const test = await api.call('POST', '/api-keys', { body: { name: 'test', environment: 'test', allowed_ips: ['127.0.0.1'] } });
  rememberKey('test key', test.body.data.key, { stored: false });
  const bySession = await api.call('POST', '/api-keys', as(paula, { body: { name: 'paula key' } }));
  expect(bySession.status).toBe(201);
  rememberKey('key created with a session', bySession.body.data.key);
  const rotated = await api.call('POST', `/api-keys/${live.body.data.id}/rotate`);
  expect(rotated.status).toBe(200);
  rememberKey('rotated key', rotated.body.data.key);
  const rotatedNow = await api.call('POST', `/api-keys/${test.body.data.id}/rotate`, { body: { grace_period_hours: 0 } });
  expect(rotatedNow.status).toBe(200);
  rememberKey('key rotated without grace', rotatedNow.body.data.key);
  for (const key of apiKeys) expect((await api.call('GET', '/workspaces', { key })).status).toBe(200);

  // User tokens, one minted by another.
  const first = await mintUserToken(api, paula, { name: 'first' });
  rememberToken('user token', first.token);
  const second = await mintUserToken(api, { type: 'user_token', bearer: first.token }, { name: 'second', abilities: ['users:read'] });
  rememberToken('user token minted by a token', second.token);
  expect((await api.call('GET', '/user', { key: second.token })).status).toBe(200);
  const adminToken = await mintUserToken(api, adminSession, { name: 'admin token' });
  rememberToken('admin user token', adminToken.token);

  // A member who registers, verifies, is invited and accepts, and logs in.
  const member = { email: 'milo@example.com', password: 'milo-is-a-member-9' };
  await joinAsMember(api, undefined, { ...member, name: 'Milo' });
  remember('member password', member.password);
  passwords.push(member);
  const beforeReset = await loginAndRemember('member', member.email, member.password);

  // An invitation to an email without an account: kept under the address's digest only.
  expect((await api.call('POST', '/users', { body: { email: invitedOnly } })).status).toBe(202);

  // A password reset used, and one left open; then a password change.
  const forgot = async () =>
    expect((await api.call('POST', `${api.runner.origin}/forgot-password`, { key: '', body: { email: member.email } })).status).toBe(202);
  await forgot();
  const resetToken = await rememberMailedToken('password reset token', member.email, /\/reset-password\//);
  const reset = { token: resetToken, email: member.email, password: 'milo-was-reset-77', password_confirmation: 'milo-was-reset-77' };
  expect((await api.call('POST', `${api.runner.origin}/reset-password`, { key: '', body: reset })).status).toBe(200);
  remember('reset password', reset.password);
  // The reset ended the member's session: its record is gone, not kept.
  if (beforeReset.type !== 'session') throw new Error('expected a session');
  endedSessionIds.push(...sessionIds.splice(sessionIds.indexOf(beforeReset.sessionId), 1));
  xsrfTokens.splice(xsrfTokens.indexOf(beforeReset.xsrfToken), 1);
  await forgot();
  openToken = await rememberMailedToken('open password reset token', member.email, /\/reset-password\//);
  const milo = await loginAndRemember('member after reset', member.email, reset.password);
  const change = { current_password: reset.password, password: 'milo-changed-it-88', password_confirmation: 'milo-changed-it-88' };
  expect((await api.call('PUT', '/user/password', as(milo, { body: change }))).status).toBe(200);
  remember('changed password', change.password);
  passwords.find((p) => p.email === member.email)!.password = change.password;

  // An email change, confirmed by the link mailed to the new address; it takes the current
  // password (the registration password, remembered above), after a mistyped one.
  changedFrom = registration.email;
  const me = (await api.call('GET', '/user', as(paula))).body.data;
  const mistypedCurrent = 'paula-mistyped-current';
  remember('a mistyped current password', mistypedCurrent);
  const askChange = (currentPassword: string) =>
    api.call('PATCH', `/users/${me.id}`, as(paula, { body: { email: 'paula.new@example.com', current_password: currentPassword } }));
  expect((await askChange(mistypedCurrent)).status).toBe(422);
  const changed = await askChange(registration.password);
  expect(changed.status).toBe(200);
  await rememberMailedToken('email change token', 'paula.new@example.com', /\/email\/change\//);
  expect((await pressLink(api, linkIn(await mailTo(api, 'paula.new@example.com'), /\/email\/change\//))).status).toBe(200);
  passwords.find((p) => p.email === registration.email)!.email = 'paula.new@example.com';

  // Webhook endpoints: a generated secret and a client's own, each rotated with a grace
  // period, so that the table holds a current and a previous secret of both kinds.
  const hook = { url: 'https://93.184.216.34/hooks', events: ['workspace.deleted'] };
  const generated = await api.call('POST', '/webhooks', { body: hook, headers: { 'Idempotency-Key': 'idempotency-key-of-a-webhook' } });
  expect(generated.status).toBe(201);
  rememberWebhookSecret('generated webhook secret', generated.body.data.secret);
  const clientSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const given = await api.call('POST', '/webhooks', { body: { ...hook, secret: clientSecret } });
  expect(given.body.data.secret).toBe(clientSecret);
  rememberWebhookSecret("a client's own webhook secret", clientSecret);
  for (const endpoint of [generated.body.data, given.body.data]) {
    const rotated = await api.call('POST', `/webhooks/${endpoint.id}/rotate-secret`, { body: { grace_period_hours: 24 } });
    expect(rotated.body.data.previous_secret_expires_at).toEqual(expect.any(String));
    rememberWebhookSecret('rotated webhook secret', rotated.body.data.secret);
    webhookIds.push(endpoint.id);
  }

  // Content, a batch and an SEO report, each sent with a key (and the batch with an Idempotency-Key):
  // the credential of a call, unlike the idempotent answer, must never be kept with what it made.
  const contentKey = await api.call('POST', '/api-keys', {
    body: { name: 'content', scopes: ['posts:write', 'posts:read', 'resources:write', 'seo:write'] },
  });
  rememberKey('content key', contentKey.body.data.key);
  const asContent = { key: contentKey.body.data.key };
  expect((await api.call('POST', '/posts', { ...asContent, body: { title: 'Stored post', content: 'body' } })).status).toBe(201);
  const batch = { operations: [{ action: 'create', data: { title: 'Batched post' } }] };
  const batched = await api.call('POST', '/resources/batch', {
    ...asContent,
    body: batch,
    headers: { 'Idempotency-Key': 'idempotency-key-of-a-batch' },
  });
  expect(batched.body.meta).toEqual({ succeeded: 1, failed: 0 });
  const report = { url: 'https://example.com/audited', scores: { performance: 1, accessibility: 2, best_practices: 3, seo: 4 } };
  expect((await api.call('POST', '/seo/report', { ...asContent, body: report })).status).toBe(201);

  items = await api.scan();
  dump = JSON.stringify(items);
});
afterAll(() => api.stop());

describe('what the table keeps of the secrets clients saw', () => {
  it('stores no secret a response showed or a request sent, in any item or attribute', () => {
    expect(items.length).toBeGreaterThan(10);
    expect(secrets.length).toBeGreaterThan(20);
    const leaked = secrets.filter(({ value }) => dump.includes(value)).map(({ label }) => label);
    expect(leaked).toEqual([]);
    // The search does find what is stored: every key's clear prefix is there.
    for (const key of apiKeys) expect(dump).toContain(key.slice(0, 16));
  });

  it('keeps webhook secrets, current and previous, only sealed under a key held outside the table', () => {
    expect(webhookIds.length).toBe(2);
    for (const id of webhookIds) {
      const endpoint = items.find((item) => typeof item.sk === 'string' && item.sk.endsWith(`#${id}`));
      const sealed = /^v1\.[A-Za-z0-9_-]{8}(\.[A-Za-z0-9_-]+){3}$/;
      expect(endpoint).toMatchObject({ sealedSecret: expect.stringMatching(sealed), sealedPreviousSecret: expect.stringMatching(sealed) });
    }
  });

  it('keeps each API key as a bcrypt hash of cost 10 next to its clear prefix', async () => {
    for (const key of apiKeys) {
      const records = items.filter((item) => item.prefix === key.slice(0, 16) && typeof item.keyHash === 'string');
      expect({ key: key.slice(0, 16), records: records.length }).toEqual({ key: key.slice(0, 16), records: 1 });
      const hash = records[0]!.keyHash as string;
      expect(hash).toMatch(/^\$2[aby]\$10\$/);
      expect(await bcrypt.compare(key, hash)).toBe(true);
    }
  });

  it('keeps each password as a bcrypt hash of cost 10 on its user', async () => {
    for (const { email, password } of passwords) {
      const user = items.find((item) => item.email === email && typeof item.passwordHash === 'string');
      expect({ email, found: !!user }).toEqual({ email, found: true });
      expect(user!.passwordHash).toMatch(/^\$2[aby]\$10\$/);
      expect(await bcrypt.compare(password, user!.passwordHash as string)).toBe(true);
    }
  });

  it('keeps each user token as the SHA-256 digest of its secret', () => {
    for (const token of tokens) {
      const [id, secret] = token.split('|');
      // Token ids are zero-padded to ten digits in keys (key order is id order).
      const record = items.find((item) => item.pk === `TOKEN#${id!.padStart(10, '0')}`);
      expect({ id, digest: record?.secretDigest }).toEqual({ id, digest: sha256(secret!) });
    }
  });

  it('keeps each open session under the SHA-256 digest of its cookie, with its XSRF token (by design)', () => {
    sessionIds.forEach((sessionId, i) => {
      const record = items.find((item) => item.pk === `SESSION#${sha256(sessionId)}`);
      expect(record).toBeDefined();
      expect(record!.xsrfToken).toBe(xsrfTokens[i]);
    });
  });

  it('keeps no record of a session a password reset ended', () => {
    expect(endedSessionIds.length).toBe(1);
    for (const sessionId of endedSessionIds) expect(items.find((item) => item.pk === `SESSION#${sha256(sessionId)}`)).toBeUndefined();
  });

  it('keeps mailed link tokens only as SHA-256 digests while they are open, though the mail folder has them', async () => {
    expect(mailedTokens.length).toBe(4);
    for (const token of mailedTokens) expect(dump).not.toContain(token);
    expect(items.find((item) => item.pk === `ACCOUNT_TOKEN#${sha256(openToken)}`)).toBeDefined();
    // The decoded parts: quoted-printable may fold a long link across lines of the raw file.
    const folder = (await readMailbox(api.runner.mailDir)).map((mail) => mail.text + mail.html).join('\n');
    for (const token of mailedTokens) expect(folder).toContain(token);
  });

  /**
   * Events are the exception, by design (docs/webhooks.md, Events): an event's `data` is the resource
   * as the API answered, emails included, kept as sent until the event expires (30 days),
   * so that every retry sends the same bytes. No secret is in them (checked above).
   */
  const withoutEvents = () => JSON.stringify(items.filter((item) => item.__edb_e__ !== 'webhookEvent'));

  it('keeps an invitation to an email without an account under the SHA-256 digest of the address only (events aside)', () => {
    expect(withoutEvents()).not.toContain(invitedOnly);
    expect(items.find((item) => item.pk === `PENDING_INVITES#${sha256(invitedOnly)}`)).toBeDefined();
  });

  it('keeps nothing of an email a user changed away from (events aside)', () => {
    expect(withoutEvents()).not.toContain(changedFrom);
    expect(withoutEvents()).toContain('paula.new@example.com');
  });
});
