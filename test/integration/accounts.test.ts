import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { confirmEmailChange, updateUser } from '#core/accounts/account-changes';
import { resendVerificationLink, verifyEmail } from '#core/accounts/email-verification';
import { changePassword, forgotPassword, resetPassword } from '#core/accounts/password-changes';
import { register } from '#core/accounts/registration';
import { login } from '#core/accounts/sessions';
import { issueApiKey } from '#core/api-keys/api-keys';
import { authenticate } from '#core/credentials/authenticate';
import { acceptInvitation, invitationsOf } from '#core/members/invitations';
import { addMember } from '#core/members/members';
import { pruneExpired } from '#core/operations/pruning';
import { sha256 as sha256Of } from '#core/platform/secrets';
import { issueUserToken } from '#core/users/user-tokens';
import { createUser, findUserIdByEmail, loadUser, workspaceIdsOf } from '#core/users/users';
import { createWorkspace } from '#core/workspaces/workspaces';
import { depsOnTable, manualClock, type TestDeps, testDeps, testHasher } from '../support/deps.ts';
import { errorOf } from '../support/errors.ts';
import { listVia } from '../support/lists.ts';
import { ownerPrincipal } from '../support/principals.ts';
import { recordingMailer } from '../support/recording-mailer.ts';

const minute = 60 * 1000;
const links = { base: 'https://api.example.com', api: 'https://api.example.com/api/v1' };

let deps: TestDeps;
let clock: ReturnType<typeof manualClock>;
let mail: ReturnType<typeof recordingMailer>;
beforeAll(async () => {
  clock = manualClock(new Date('2026-03-01T00:00:00Z'));
  mail = recordingMailer();
  deps = await testDeps({ clock, mailer: mail });
});
afterAll(() => deps.close());

let serial = 0;
/** A distinct client address per registration, so the per-address throttle stays out of tests about something else. */
const signUp = (email: string, password = 'a good password', sourceIp = `198.51.100.${++serial}`) =>
  register(deps, { name: `Person ${serial}`, email, password, sourceIp }, links);

/** The [id, token] of the last verification (or email change) link mailed to `address`. */
function linkParts(address: string, kind: 'verify' | 'change'): [number, string] {
  const pattern = new RegExp(`/email/${kind}/(\\d+)/([\\w-]+)`);
  const match = mail.sent
    .filter((m) => m.to === address)
    .map((m) => pattern.exec(m.text))
    .filter((m) => m !== null)
    .at(-1);
  if (!match) throw new Error(`no ${kind} link to ${address}`);
  return [Number(match[1]), match[2]!];
}

const resetTokenOf = (address: string) => /\/reset-password\/([\w-]+)\?email=/.exec(mail.lastTo(address).text)![1]!;
const sessionOf = (email: string, password: string) => login(deps, { email, password, sourceIp: '203.0.113.9' });

async function verifiedUser(email: string, password = 'a good password') {
  await signUp(email, password);
  const [id, token] = linkParts(email, 'verify');
  await verifyEmail(deps, id, token);
  return id;
}

describe('registration', () => {
  it('answers alike for a taken email, mails its owner instead, and changes nothing of the account', async () => {
    await expect(signUp('rita@example.com', 'first password')).resolves.toBeUndefined();
    expect(mail.lastTo('rita@example.com').subject).toBe('Verify your email address');
    await expect(signUp('RITA@example.com', 'second password')).resolves.toBeUndefined();
    const notice = mail.lastTo('rita@example.com');
    expect(notice.subject).toBe('Someone tried to register with your email address');
    expect(notice.text).toContain('https://api.example.com/forgot-password');
    await expect(sessionOf('rita@example.com', 'first password')).resolves.toBeDefined();
    expect((await errorOf(sessionOf('rita@example.com', 'second password'))).errorCode).toBe('INVALID_CREDENTIALS');
  });

  it('allows 50 registrations an hour from one client address, then answers 429 with Retry-After', async () => {
    // At once, as a script would send them: the hourly count is atomic, so all 50 get through.
    await Promise.all(Array.from({ length: 50 }, (_, i) => signUp(`many${i}@example.com`, 'a good password', '192.0.2.200')));
    const refused = await errorOf(signUp('one-more@example.com', 'a good password', '192.0.2.200'));
    expect([refused.status, refused.headers['Retry-After']]).toEqual([429, expect.stringMatching(/^\d+$/)]);
    expect(await findUserIdByEmail(deps, 'one-more@example.com')).toBeUndefined();
  });

  it('escapes names in the HTML part and links absolutely to the base URL', async () => {
    await register(
      deps,
      { name: '<script>x</script>', email: 'html@example.com', password: 'a good password', sourceIp: '192.0.2.9' },
      links,
    );
    const message = mail.lastTo('html@example.com');
    expect(message.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(message.html).not.toContain('<script>');
    expect(mail.linkIn(message)).toMatch(/^https:\/\/api\.example\.com\/email\/verify\/\d+\/[\w-]+$/);
  });
});

describe('passwords longer than bcrypt reads (72 bytes)', () => {
  it('are refused when set, counted in UTF-8 bytes', async () => {
    const tooLong = await errorOf(signUp('long@example.com', `${'P'.repeat(72)}secretTail`));
    expect([tooLong.status, tooLong.extras.errors]).toEqual([422, { password: [expect.stringContaining('72 bytes')] }]);
    // 36 two-byte characters are 72 bytes; one more is too many.
    await expect(signUp('umlaut@example.com', 'ä'.repeat(36))).resolves.toBeUndefined();
    expect((await errorOf(signUp('umlaut2@example.com', 'ä'.repeat(37)))).status).toBe(422);
  });

  it('never open an account whose password is their first 72 bytes', async () => {
    await createUser(deps, { name: 'Pat', email: 'p72@example.com', tier: 'free', password: 'P'.repeat(72) });
    await createWorkspace(deps, (await findUserIdByEmail(deps, 'p72@example.com'))!, { name: 'P' });
    await expect(sessionOf('p72@example.com', 'P'.repeat(72))).resolves.toBeDefined();
    expect((await errorOf(sessionOf('p72@example.com', `${'P'.repeat(72)}WRONGWRONG`))).errorCode).toBe('INVALID_CREDENTIALS');
  });
});

describe('email verification', () => {
  it('sets email_verified_at with a link good for 60 minutes and stored only as a digest; pressed again, it says so and changes nothing', async () => {
    await signUp('vera@example.com');
    const [id, token] = linkParts('vera@example.com', 'verify');
    const { Items } = await deps.client.send(new ScanCommand({ TableName: deps.tableName }));
    expect(JSON.stringify(Items)).not.toContain(token);
    expect((await loadUser(deps, id)).emailVerifiedAt).toBeUndefined();
    const verifiedAt = clock.now().toISOString();
    expect(await verifyEmail(deps, id, token)).toMatchObject({ user: { email_verified_at: verifiedAt }, already: false });
    // Used, it keeps its address only as a digest.
    const used = (await deps.db.entities.accountToken.get({ digest: sha256Of(token) }).go()).data;
    expect(used).toMatchObject({ usedAt: verifiedAt, emailDigest: sha256Of('vera@example.com') });
    expect(used).not.toHaveProperty('email');
    clock.advance(minute);
    // Pressed again: nothing changes, and it says so.
    expect(await verifyEmail(deps, id, token)).toMatchObject({ user: { email_verified_at: verifiedAt }, already: true });
  });

  it('lets two presses at once verify once, at the first one’s time', async () => {
    await signUp('twice@example.com');
    const [id, token] = linkParts('twice@example.com', 'verify');
    const both = await Promise.all([verifyEmail(deps, id, token), verifyEmail(deps, id, token)]);
    const times = new Set(both.map(({ user }) => user.email_verified_at));
    expect([times.size, (await loadUser(deps, id)).emailVerifiedAt]).toEqual([1, [...times][0]]);
  });

  it('refuses a link after 60 minutes, or for another user id; a new link can be asked for, six a minute', async () => {
    await signUp('late@example.com');
    const [id, token] = linkParts('late@example.com', 'verify');
    expect((await errorOf(verifyEmail(deps, id + 1, token))).errorCode).toBe('ACCESS_DENIED');
    clock.advance(61 * minute);
    expect((await errorOf(verifyEmail(deps, id, token))).errorCode).toBe('ACCESS_DENIED');
    for (let i = 0; i < 6; i++) expect(await resendVerificationLink(deps, id, links)).toBe(true);
    expect((await errorOf(resendVerificationLink(deps, id, links))).status).toBe(429);
    await verifyEmail(deps, ...linkParts('late@example.com', 'verify'));
    expect(await resendVerificationLink(deps, id, links)).toBe(false);
  });
});

describe('POST /users as invitations by email', () => {
  it('creates no account for a new email; once registered and verified, the invitation is theirs to accept', async () => {
    const ownerId = await verifiedUser('olga@example.com');
    const workspace = await createWorkspace(deps, ownerId, { name: 'Olga & Co' });
    const sent = await addMember(
      deps,
      { userId: ownerId },
      workspace.id,
      { email: 'Nina@Example.com', name: 'Nina', role: 'admin' },
      links,
    );
    expect(sent).toEqual({
      email: 'nina@example.com',
      role: 'admin',
      workspace_id: workspace.id,
      status: 'invited',
      expires_at: expect.any(String),
    });
    expect(await findUserIdByEmail(deps, 'nina@example.com')).toBeUndefined();
    expect(mail.lastTo('nina@example.com').html).toContain('Olga &amp; Co');

    await signUp('nina@example.com');
    const ninaId = (await findUserIdByEmail(deps, 'nina@example.com'))!;
    expect((await listVia('listInvitations', invitationsOf(deps, ninaId))).data).toEqual([]);
    expect((await errorOf(acceptInvitation(deps, ninaId, workspace.id))).errorCode).toBe('EMAIL_NOT_VERIFIED');
    await verifyEmail(deps, ...linkParts('nina@example.com', 'verify'));
    expect((await listVia('listInvitations', invitationsOf(deps, ninaId))).data).toMatchObject([
      { workspace_id: workspace.id, role: 'admin' },
    ]);
    expect(await acceptInvitation(deps, ninaId, workspace.id)).toMatchObject({ id: workspace.id, role: 'admin' });
  });

  it('answers the same for an existing account, which gets the invitation and a mail, and may accept only once verified', async () => {
    const ownerId = await verifiedUser('owen@example.com');
    const workspace = await createWorkspace(deps, ownerId, { name: 'Owen' });
    await signUp('uri@example.com');
    const uriId = (await findUserIdByEmail(deps, 'uri@example.com'))!;
    const sent = await addMember(deps, { userId: ownerId }, workspace.id, { email: 'uri@example.com', role: 'member' }, links);
    const unknown = await addMember(deps, { userId: ownerId }, workspace.id, { email: 'nobody@example.com', role: 'member' }, links);
    expect(Object.keys(sent)).toEqual(Object.keys(unknown));
    expect(mail.lastTo('uri@example.com').subject).toBe('You are invited to Owen');
    expect((await errorOf(acceptInvitation(deps, uriId, workspace.id))).status).toBe(403);
    await verifyEmail(deps, ...linkParts('uri@example.com', 'verify'));
    await expect(acceptInvitation(deps, uriId, workspace.id)).resolves.toMatchObject({ id: workspace.id });
  });
});

describe('password reset', () => {
  it('mails a link for an existing email only, answering alike; the token works once and ends every session', async () => {
    await verifiedUser('rosa@example.com', 'old password');
    const sessions = [await sessionOf('rosa@example.com', 'old password'), await sessionOf('rosa@example.com', 'old password')];
    const before = mail.sent.length;
    await expect(forgotPassword(deps, { email: 'ghost@example.com', sourceIp: '192.0.2.50' }, links)).resolves.toBeUndefined();
    expect(mail.sent.length).toBe(before);
    await forgotPassword(deps, { email: 'ROSA@example.com', sourceIp: '192.0.2.50' }, links);
    const token = resetTokenOf('rosa@example.com');
    expect(mail.linkIn(mail.lastTo('rosa@example.com'))).toBe(`https://api.example.com/reset-password/${token}?email=rosa%40example.com`);

    expect((await errorOf(resetPassword(deps, { token, email: 'other@example.com', password: 'new password' }))).status).toBe(422);
    await resetPassword(deps, { token, email: 'rosa@example.com', password: 'new password' });
    const reused = await errorOf(resetPassword(deps, { token, email: 'rosa@example.com', password: 'third password' }));
    expect([reused.status, Object.keys(reused.extras.errors as object)]).toEqual([422, ['token']]);
    for (const session of sessions) {
      expect((await deps.db.entities.session.get({ digest: sha256Of(session.sessionId) }).go()).data).toBeNull();
    }
    await expect(sessionOf('rosa@example.com', 'new password')).resolves.toBeDefined();
  });

  it('shuts out whoever registered an address before its owner: resetting an unverified account revokes its tokens and keys', async () => {
    await signUp('squatted@example.com', 'squatter password');
    const squatterId = (await findUserIdByEmail(deps, 'squatted@example.com'))!;
    const [workspaceId] = await workspaceIdsOf(deps, squatterId);
    const principal = ownerPrincipal(squatterId, workspaceId!);
    const key = (await issueApiKey(deps, squatterId, workspaceId!, { name: 'kept by the squatter' })).key;
    const token = (await issueUserToken(deps, principal, workspaceId!, { name: 'kept too' })).token;
    const bearer = (secret: string) => authenticate(deps, { authorization: `Bearer ${secret}`, method: 'GET', sourceIp: '203.0.113.7' });
    await expect(bearer(key)).resolves.toBeDefined();

    await forgotPassword(deps, { email: 'squatted@example.com', sourceIp: '192.0.2.70' }, links);
    await resetPassword(deps, { token: resetTokenOf('squatted@example.com'), email: 'squatted@example.com', password: 'the owner now' });
    for (const secret of [key, token]) expect((await errorOf(bearer(secret))).status).toBe(401);
  });

  it('keeps the tokens of a verified account through a reset, as Laravel does', async () => {
    const id = await verifiedUser('kept@example.com');
    const [workspaceId] = await workspaceIdsOf(deps, id);
    const token = (await issueUserToken(deps, ownerPrincipal(id, workspaceId!), workspaceId!, { name: 'cli' })).token;
    await forgotPassword(deps, { email: 'kept@example.com', sourceIp: '192.0.2.71' }, links);
    await resetPassword(deps, { token: resetTokenOf('kept@example.com'), email: 'kept@example.com', password: 'new password' });
    await expect(authenticate(deps, { authorization: `Bearer ${token}`, method: 'GET', sourceIp: '203.0.113.7' })).resolves.toBeDefined();
  });

  it('refuses a token after 60 minutes, and throttles requests per email', async () => {
    await verifiedUser('ted@example.com');
    await forgotPassword(deps, { email: 'ted@example.com', sourceIp: '192.0.2.60' }, links);
    const token = resetTokenOf('ted@example.com');
    clock.advance(61 * minute);
    expect((await errorOf(resetPassword(deps, { token, email: 'ted@example.com', password: 'new password' }))).status).toBe(422);
    for (const address of ['192.0.2.61', '192.0.2.62', '192.0.2.63'])
      await forgotPassword(deps, { email: 'ted@example.com', sourceIp: address }, links);
    expect((await errorOf(forgotPassword(deps, { email: 'ted@example.com', sourceIp: '192.0.2.64' }, links))).status).toBe(429);
  });
});

describe('PUT /user/password', () => {
  it('needs the current password and ends every other session, keeping the caller’s', async () => {
    const id = await verifiedUser('cleo@example.com', 'old password');
    const [mine, other] = [await sessionOf('cleo@example.com', 'old password'), await sessionOf('cleo@example.com', 'old password')];
    const wrong = await errorOf(changePassword(deps, { userId: id, currentPassword: 'not it', password: 'new password' }));
    expect([wrong.status, wrong.extras.errors]).toEqual([422, { current_password: ['is incorrect'] }]);
    await changePassword(deps, {
      userId: id,
      currentPassword: 'old password',
      password: 'new password',
      keepSessionDigest: sha256Of(mine.sessionId),
    });
    expect((await deps.db.entities.session.get({ digest: sha256Of(mine.sessionId) }).go()).data).not.toBeNull();
    expect((await deps.db.entities.session.get({ digest: sha256Of(other.sessionId) }).go()).data).toBeNull();
    expect((await errorOf(sessionOf('cleo@example.com', 'old password'))).errorCode).toBe('INVALID_CREDENTIALS');
  });
});

describe('email change', () => {
  const currentPassword = 'a good password';

  it('takes effect only when the new address opens its link, which verifies it; the old address gets a notice', async () => {
    const id = await verifiedUser('eve@example.com');
    const answer = await updateUser(deps, id, id, { email: 'eve.new@example.com', name: 'Eve', currentPassword }, links);
    expect(answer).toMatchObject({ emailChangeMailed: true, user: { email: 'eve@example.com', name: 'Eve' } });
    expect(mail.lastTo('eve@example.com').subject).toBe('Your email address is about to change');
    const [linkId, token] = linkParts('eve.new@example.com', 'change');
    expect(await findUserIdByEmail(deps, 'eve.new@example.com')).toBeUndefined();
    const changed = await confirmEmailChange(deps, linkId, token);
    expect(changed).toMatchObject({ user: { email: 'eve.new@example.com', email_verified_at: clock.now().toISOString() }, already: false });
    expect([await findUserIdByEmail(deps, 'eve.new@example.com'), await findUserIdByEmail(deps, 'eve@example.com')]).toEqual([
      id,
      undefined,
    ]);
    expect(await confirmEmailChange(deps, linkId, token)).toMatchObject({ user: { email: 'eve.new@example.com' }, already: true });
  });

  it('lets two presses at once change the email once; the other press answers that it is done', async () => {
    const id = await verifiedUser('gus@example.com');
    await updateUser(deps, id, id, { email: 'gus.new@example.com', currentPassword }, links);
    const [linkId, token] = linkParts('gus.new@example.com', 'change');
    const both = await Promise.all([confirmEmailChange(deps, linkId, token), confirmEmailChange(deps, linkId, token)]);
    expect(both.map(({ already }) => already).sort()).toEqual([false, true]);
    expect((await loadUser(deps, id)).email).toBe('gus.new@example.com');
  });

  it('voids a used link once the account has moved on to another address', async () => {
    const id = await verifiedUser('hal@example.com');
    await updateUser(deps, id, id, { email: 'hal.two@example.com', currentPassword }, links);
    const [linkId, token] = linkParts('hal.two@example.com', 'change');
    await confirmEmailChange(deps, linkId, token);
    await updateUser(deps, id, id, { email: 'hal.three@example.com', currentPassword }, links);
    await confirmEmailChange(deps, ...linkParts('hal.three@example.com', 'change'));
    expect((await errorOf(confirmEmailChange(deps, linkId, token))).errorCode).toBe('ACCESS_DENIED');
    expect((await loadUser(deps, id)).email).toBe('hal.three@example.com');
  });

  it('needs the current password, checked before anything changes; an account without a password sets one by a reset first', async () => {
    const id = await verifiedUser('ian@example.com');
    const before = await loadUser(deps, id);
    const wrong = await errorOf(
      updateUser(deps, id, id, { name: 'Not Ian', email: 'ian.new@example.com', currentPassword: 'not it' }, links),
    );
    expect([wrong.status, wrong.extras.errors]).toEqual([422, { current_password: ['is incorrect'] }]);
    expect(await loadUser(deps, id)).toEqual(before);
    expect(mail.sent.filter((m) => m.to === 'ian.new@example.com')).toEqual([]);

    const passwordless = await createUser(deps, { name: 'Pat', email: 'pat@example.com', tier: 'free' });
    const refused = await errorOf(
      updateUser(deps, passwordless.id, passwordless.id, { email: 'pat.new@example.com', currentPassword: 'anything' }, links),
    );
    expect([refused.status, refused.extras.errors]).toEqual([
      422,
      { current_password: [expect.stringContaining('set one with a password reset')] },
    ]);
    expect((await updateUser(deps, passwordless.id, passwordless.id, { name: 'Patricia' }, links)).user.name).toBe('Patricia');
  });

  it('is stopped by a password change that lands between its password check and its link, whatever the order', async () => {
    const id = await verifiedUser('joy@example.com');
    // The check of the email change's password is where the owner's password change slips in.
    const racing = depsOnTable(deps.tableName, {
      clock,
      mailer: mail,
      hasher: {
        hash: testHasher.hash,
        compare: async (plain, hash) => {
          const matches = await testHasher.compare(plain, hash);
          await changePassword(deps, { userId: id, currentPassword, password: 'the owner took it back' });
          return matches;
        },
      },
    });
    const refused = await errorOf(updateUser(racing, id, id, { email: 'joy.stolen@example.com', currentPassword }, links));
    racing.close();
    expect([refused.status, refused.errorCode]).toEqual([409, 'STATE_CONFLICT']);
    expect((await loadUser(deps, id)).pendingEmailChange).toBeUndefined();
  });

  it('answers 409 at confirmation when the address was taken meanwhile', async () => {
    const id = await verifiedUser('fay@example.com');
    await updateUser(deps, id, id, { email: 'fay.new@example.com', currentPassword }, links);
    const [linkId, token] = linkParts('fay.new@example.com', 'change');
    await signUp('fay.new@example.com');
    expect((await errorOf(confirmEmailChange(deps, linkId, token))).status).toBe(409);
    expect((await loadUser(deps, id)).email).toBe('fay@example.com');
  });
});

describe('pruning', () => {
  it('deletes mailed tokens once their hour is over, and lapsed pending invitations', async () => {
    const ownerId = await verifiedUser('pru@example.com');
    const workspace = await createWorkspace(deps, ownerId, { name: 'Pru' });
    await addMember(deps, { userId: ownerId }, workspace.id, { email: 'never@example.com', role: 'member' }, links);
    await signUp('unverified@example.com');
    clock.advance(8 * 24 * 60 * minute);
    const pruned = await pruneExpired(deps);
    expect(pruned.accountTokens).toBeGreaterThanOrEqual(1);
    expect(pruned.pendingInvitations).toBeGreaterThanOrEqual(1);
    expect(await pruneExpired(deps)).toMatchObject({ accountTokens: 0, pendingInvitations: 0 });
  });
});
