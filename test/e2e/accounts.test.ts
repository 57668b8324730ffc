import { accountThrottles } from '#core/accounts/throttles';
import { joinAsMember, linkIn, mailTo, pressLink, registerVerified, verifyByMail } from '../support/accounts.ts';
import { manualClock } from '../support/deps.ts';
import { startTestApi, type TestApi } from '../support/local-api.ts';
import { as, login, mintUserToken, register } from '../support/sessions.ts';
import { awayFromWindowEnd } from '../support/throttle-window.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const password = 'account flows here';
const root = (path: string) => `${api.runner.origin}${path}`;
const publicCall = (method: string, path: string, body?: unknown) => api.call(method, root(path), { key: '', body });
const bootstrap = () => api.runner.bootstrap!;

describe('registration and verification', () => {
  it('answers a taken email exactly as a new one, mails its owner instead, and leaves the account as it was', async () => {
    const fresh = await register(api, { name: 'Rita', email: 'rita@example.com', password });
    const taken = await register(api, { name: 'Not Rita', email: 'RITA@example.com', password: 'another password' });
    expect([fresh.status, taken.status]).toEqual([202, 202]);
    expect(taken.body).toEqual(fresh.body);
    expect(JSON.stringify(fresh.body)).not.toMatch(/"id"|"data"/);
    expect((await mailTo(api, 'rita@example.com')).subject).toBe('Someone tried to register with your email address');
    expect((await login(api, 'rita@example.com', password)).answer.status).toBe(200);
    const other = await publicCall('POST', '/login', { email: 'rita@example.com', password: 'another password' });
    expect(other.status).toBe(401);
  });

  it('checks password_confirmation when it is sent', async () => {
    const mismatch = await publicCall('POST', '/register', {
      name: 'Cora',
      email: 'cora@example.com',
      password,
      password_confirmation: 'something else',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password: ['The password field confirmation does not match.'] });
    const matching = await publicCall('POST', '/register', {
      name: 'Cora',
      email: 'cora@example.com',
      password,
      password_confirmation: password,
    });
    expect(matching.status).toBe(202);
  });

  it('sets email_verified_at when the button of a mailed link is pressed, with or without a session; a new link on request', async () => {
    await register(api, { name: 'Vera', email: 'vera@example.com', password });
    const { session } = await login(api, 'vera@example.com', password);
    expect((await api.call('GET', '/user', as(session))).body.data.email_verified_at).toBeNull();
    const first = linkIn(await mailTo(api, 'vera@example.com'), /\/email\/verify\/\d+\/[\w-]+$/);
    expect(first.startsWith(`${api.runner.origin}/email/verify/`)).toBe(true);

    const resent = await api.call('POST', root('/email/verification-notification'), as(session));
    expect(resent.status).toBe(202);
    const second = linkIn(await mailTo(api, 'vera@example.com'), /\/email\/verify\//);
    expect(second).not.toBe(first);

    const pressed = await pressLink(api, second);
    expect([pressed.status, pressed.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(pressed.body).toContain('Your email address is verified.');
    expect((await api.call('GET', '/user', as(session))).body.data.email_verified_at).toEqual(expect.any(String));
    expect((await api.call('POST', root('/email/verification-notification'), as(session))).status).toBe(200);
  });
});

describe('mailed links opened without a person (HEAD, GET: mail scanners and prefetchers)', () => {
  /** What a scanner does: HEAD and GET, several times, without pressing anything. */
  async function scan(link: string) {
    for (const method of ['HEAD', 'GET', 'HEAD', 'GET']) {
      const answer = await api.call(method, link, { key: '' });
      expect([method, answer.status, answer.headers.get('content-type')]).toEqual([method, 200, 'text/html; charset=utf-8']);
      expect(answer.headers.get('content-security-policy')).toMatch(/default-src 'none'.*form-action 'self'.*frame-ancestors 'none'/);
      expect([answer.headers.get('referrer-policy'), answer.headers.get('cache-control')]).toEqual(['no-referrer', 'no-store']);
      if (method === 'HEAD') expect(answer.body).toBeUndefined();
      else expect(answer.body).toContain(`<form method="post" action="${new URL(link).pathname}">`);
    }
  }

  it('verify nothing: the address is verified only when the button is pressed, and pressed again says so', async () => {
    await register(api, { name: 'Scott', email: 'scott@example.com', password });
    const { session } = await login(api, 'scott@example.com', password);
    const link = linkIn(await mailTo(api, 'scott@example.com'), /\/email\/verify\//);
    await scan(link);
    expect((await api.call('GET', '/user', as(session))).body.data.email_verified_at).toBeNull();

    expect((await pressLink(api, link)).body).toContain('Your email address is verified.');
    const verifiedAt = (await api.call('GET', '/user', as(session))).body.data.email_verified_at;
    expect(verifiedAt).toEqual(expect.any(String));
    const again = await pressLink(api, link);
    expect([again.status, again.body]).toEqual([200, expect.stringContaining('Your email address is verified already.')]);
    const asJson = await api.call('POST', link, { key: '', headers: { Accept: 'application/json' } });
    expect([asJson.status, asJson.body]).toEqual([200, { message: 'Your email address is verified already.' }]);
    expect((await api.call('GET', '/user', as(session))).body.data.email_verified_at).toBe(verifiedAt);
  });

  it('change no address: the new one takes effect only when the button is pressed, and pressed again says so', async () => {
    const { userId, session } = await registerVerified(api, { name: 'Sid', email: 'sid@example.com', password });
    await api.call('PATCH', `/users/${userId}`, as(session, { body: { email: 'sid.new@example.com', current_password: password } }));
    const link = linkIn(await mailTo(api, 'sid.new@example.com'), /\/email\/change\//);
    await scan(link);
    expect((await api.call('GET', '/user', as(session))).body.data.email).toBe('sid@example.com');
    expect((await login(api, 'sid@example.com', password)).answer.status).toBe(200);

    const pressed = await pressLink(api, link, { Accept: 'application/json' });
    expect([pressed.status, pressed.body]).toEqual([200, { message: 'Your email address has changed, and is verified.' }]);
    expect((await api.call('GET', '/user', as(session))).body.data.email).toBe('sid.new@example.com');
    const again = await pressLink(api, link);
    expect([again.status, again.body]).toEqual([200, expect.stringContaining('This address is the email of your account already.')]);
  });

  it('refuse a press without the mailed token: a page with the status for a browser, the envelope for a JSON client', async () => {
    const { userId } = await registerVerified(api, { name: 'Ivy', email: 'ivy@example.com', password });
    const forged = root(`/email/change/${userId}/not-the-token`);
    const page = await api.call('POST', forged, {
      key: '',
      rawBody: '',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://elsewhere.example' },
    });
    expect([page.status, page.headers.get('content-type'), page.body]).toEqual([
      403,
      'text/html; charset=utf-8',
      expect.stringContaining('This link is invalid'),
    ]);
    const json = await api.call('POST', forged, { key: '', headers: { Accept: 'application/json' } });
    expect([json.status, json.body.error_code]).toEqual([403, 'ACCESS_DENIED']);
  });

  it('open as the page even when mangled in the copying (a trailing = of quoted-printable, a word for an id)', async () => {
    for (const mangled of ['/email/verify/2/token=', '/email/change/abc/xyz', '/email/verify/12345678901234567890/t%20t']) {
      const page = await api.call('GET', root(mangled), { key: '' });
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    }
  });
});

describe('invitations by email', () => {
  it('register, verify, accept: an invitation to an email without an account waits for its verified owner', async () => {
    const invited = await api.call('POST', '/users', { body: { email: 'nina@example.com', name: 'Nina', role: 'admin' } });
    expect(invited.status).toBe(202);
    expect(linkIn(await mailTo(api, 'nina@example.com'), /\/register$/)).toBe(root('/register'));
    expect((await publicCall('POST', '/login', { email: 'nina@example.com', password })).status).toBe(401);

    await register(api, { name: 'Nina', email: 'nina@example.com', password });
    const { session } = await login(api, 'nina@example.com', password);
    const accept = `/user/invitations/${bootstrap().workspaceId}/accept`;
    expect((await api.call('GET', '/user/invitations', as(session))).body.data).toEqual([]);
    await verifyByMail(api, 'nina@example.com');
    expect((await api.call('GET', '/user/invitations', as(session))).body.data).toMatchObject([
      { workspace_id: bootstrap().workspaceId, role: 'admin' },
    ]);
    expect((await api.call('POST', accept, as(session))).status).toBe(200);
    const members = (await api.call('GET', '/users?per_page=100')).body.data;
    expect(members.find((m: { email: string }) => m.email === 'nina@example.com')?.role).toBe('admin');
  });

  it('refuses to let an unverified account accept (403 EMAIL_NOT_VERIFIED)', async () => {
    await register(api, { name: 'Uri', email: 'uri@example.com', password });
    expect((await api.call('POST', '/users', { body: { email: 'uri@example.com' } })).status).toBe(202);
    const { session } = await login(api, 'uri@example.com', password);
    const refused = await api.call('POST', `/user/invitations/${bootstrap().workspaceId}/accept`, as(session));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'access_denied', error_code: 'EMAIL_NOT_VERIFIED' });
  });

  it('answers alike for an email with and without an account, and refuses a password (422)', async () => {
    await registerVerified(api, { name: 'Kai', email: 'kai@example.com', password });
    const existing = await api.call('POST', '/users', { body: { email: 'kai@example.com' } });
    const unknown = await api.call('POST', '/users', { body: { email: 'nobody-yet@example.com' } });
    expect([existing.status, unknown.status]).toEqual([202, 202]);
    expect(existing.body.message).toBe(unknown.body.message);
    expect(Object.keys(existing.body.data).sort()).toEqual(Object.keys(unknown.body.data).sort());
    expect((await mailTo(api, 'kai@example.com')).subject).toMatch(/^You are invited to /);

    const withPassword = await api.call('POST', '/users', { body: { email: 'claimed@example.com', password } });
    expect(withPassword.status).toBe(422);
    expect((await publicCall('POST', '/login', { email: 'claimed@example.com', password })).status).toBe(401);
  });
});

describe('password reset', () => {
  it('mails a link for an existing email, answers alike for an unknown one; the token works once and ends every session', async () => {
    const { session } = await registerVerified(api, { name: 'Rosa', email: 'rosa@example.com', password });
    const other = (await login(api, 'rosa@example.com', password)).session;

    const unknown = await publicCall('POST', '/forgot-password', { email: 'ghost@example.com' });
    const known = await publicCall('POST', '/forgot-password', { email: 'rosa@example.com' });
    expect([unknown.status, known.status]).toEqual([202, 202]);
    expect(unknown.body).toEqual(known.body);
    const link = new URL(linkIn(await mailTo(api, 'rosa@example.com'), /\/reset-password\//));
    expect(link.origin + link.pathname).toMatch(new RegExp(`^${api.runner.origin}/reset-password/[\\w-]+$`));
    expect(link.searchParams.get('email')).toBe('rosa@example.com');
    const token = link.pathname.split('/').at(-1)!;

    const body = { token, email: 'rosa@example.com', password: 'a brand new one', password_confirmation: 'a brand new one' };
    const mismatch = await publicCall('POST', '/reset-password', { ...body, password_confirmation: 'typo' });
    expect(mismatch.status).toBe(422);
    const tooLong = await publicCall('POST', '/reset-password', {
      ...body,
      password: 'P'.repeat(73),
      password_confirmation: 'P'.repeat(73),
    });
    expect(tooLong.status).toBe(422);
    expect((await publicCall('POST', '/reset-password', body)).status).toBe(200);
    const reused = await publicCall('POST', '/reset-password', {
      ...body,
      password: 'yet another one',
      password_confirmation: 'yet another one',
    });
    expect([reused.status, Object.keys(reused.body.errors)]).toEqual([422, ['token']]);

    for (const ended of [session, other]) expect((await api.call('GET', '/user', as(ended))).status).toBe(401);
    expect((await publicCall('POST', '/login', { email: 'rosa@example.com', password })).status).toBe(401);
    expect((await login(api, 'rosa@example.com', 'a brand new one')).answer.status).toBe(200);
  });
});

describe('PUT /user/password', () => {
  it('needs the current password, ends the other sessions and keeps the caller’s; user tokens stay', async () => {
    const { session } = await registerVerified(api, { name: 'Cleo', email: 'cleo@example.com', password });
    const other = (await login(api, 'cleo@example.com', password)).session;
    const token = await mintUserToken(api, session, { name: 'cli' });
    const change = (body: Record<string, string>) => api.call('PUT', '/user/password', as(session, { body }));

    const wrong = await change({ current_password: 'not it', password: 'new password!', password_confirmation: 'new password!' });
    expect([wrong.status, wrong.body.errors]).toEqual([422, { current_password: ['is incorrect'] }]);
    const tooLong = await change({ current_password: password, password: `${'P'.repeat(72)}secretTail` });
    expect([tooLong.status, Object.keys(tooLong.body.errors)]).toEqual([422, ['password']]);
    expect((await change({ current_password: password, password: 'new password!', password_confirmation: 'new password!' })).status).toBe(
      200,
    );

    expect((await api.call('GET', '/user', as(session))).status).toBe(200);
    expect((await api.call('GET', '/user', as(other))).status).toBe(401);
    expect((await api.call('GET', '/user', { key: token.token })).status).toBe(200);
    expect((await login(api, 'cleo@example.com', 'new password!')).answer.status).toBe(200);
  });
});

describe('email change', () => {
  it('takes effect only once the new address opens its link; the old one gets a notice', async () => {
    const { userId, session } = await registerVerified(api, { name: 'Eve', email: 'eve@example.com', password });
    const patched = await api.call(
      'PATCH',
      `/users/${userId}`,
      as(session, { body: { email: 'eve.new@example.com', current_password: password } }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body.message).toMatch(/link/);
    expect(patched.body.data.email).toBe('eve@example.com');
    expect((await mailTo(api, 'eve@example.com')).subject).toBe('Your email address is about to change');
    expect((await publicCall('POST', '/login', { email: 'eve.new@example.com', password })).status).toBe(401);

    const link = linkIn(await mailTo(api, 'eve.new@example.com'), /\/email\/change\//);
    expect((await pressLink(api, link)).status).toBe(200);
    const me = (await api.call('GET', '/user', as(session))).body.data;
    expect(me).toMatchObject({ email: 'eve.new@example.com', email_verified_at: expect.any(String) });
    expect((await login(api, 'eve.new@example.com', password)).answer.status).toBe(200);

    // Once the account has moved on to another address, the used link is void.
    await api.call('PATCH', `/users/${userId}`, as(session, { body: { email: 'eve.third@example.com', current_password: password } }));
    await pressLink(api, linkIn(await mailTo(api, 'eve.third@example.com'), /\/email\/change\//));
    const stale = await pressLink(api, link, { Accept: 'application/json' });
    expect([stale.status, stale.body.error_code]).toEqual([403, 'ACCESS_DENIED']);
    expect((await api.call('GET', '/user', as(session))).body.data.email).toBe('eve.third@example.com');
  });

  it('can be stopped: a newer request voids the earlier link, and a password change voids any, as the notice says', async () => {
    const { userId, session } = await registerVerified(api, { name: 'Sid', email: 'sid@example.com', password });
    let current = password;
    const ask = (email: string) => api.call('PATCH', `/users/${userId}`, as(session, { body: { email, current_password: current } }));
    const linkTo = async (email: string) => linkIn(await mailTo(api, email), /\/email\/change\//);
    expect((await ask('sid.first@example.com')).status).toBe(200);
    expect((await ask('sid.second@example.com')).status).toBe(200);
    const first = await pressLink(api, await linkTo('sid.first@example.com'), { Accept: 'application/json' });
    expect([first.status, first.body.error_code]).toEqual([403, 'ACCESS_DENIED']);
    expect((await api.call('GET', '/user', as(session))).body.data.email).toBe('sid@example.com');

    // Someone with the session asked; the person changes the password, and the change is off.
    expect((await mailTo(api, 'sid@example.com')).text).toContain('change your password');
    const changed = await api.call(
      'PUT',
      '/user/password',
      as(session, { body: { current_password: password, password: 'sid new password', password_confirmation: 'sid new password' } }),
    );
    expect(changed.status).toBe(200);
    current = 'sid new password';
    const second = await pressLink(api, await linkTo('sid.second@example.com'), { Accept: 'application/json' });
    expect([second.status, second.body.error_code]).toEqual([403, 'ACCESS_DENIED']);
    expect((await api.call('GET', '/user', as(session))).body.data.email).toBe('sid@example.com');

    // A new request after that works as usual.
    expect((await ask('sid.third@example.com')).status).toBe(200);
    expect((await pressLink(api, await linkTo('sid.third@example.com'))).status).toBe(200);
    expect((await api.call('GET', '/user', as(session))).body.data.email).toBe('sid.third@example.com');
  });

  it('needs the current password, whatever the credential: a key holding only users:write cannot change the email alone', async () => {
    const { userId, session } = await registerVerified(api, { name: 'Kim', email: 'kim@example.com', password });
    const minted = await api.call('POST', '/api-keys', as(session, { body: { name: 'profile sync', scopes: ['users:write'] } }));
    expect(minted.status).toBe(201);
    const patch = (body: Record<string, string>) => api.call('PATCH', `/users/${userId}`, { key: minted.body.data.key, body });

    // What a leaked key would do: ask for a link to an address of its own, then reset the password there.
    const missing = await patch({ email: 'not-kim@example.com' });
    expect([missing.status, missing.body.error_code, missing.body.errors]).toEqual([
      422,
      'VALIDATION_FAILED',
      { current_password: ['is required to change the email'] },
    ]);
    const wrong = await patch({ name: 'Not Kim', email: 'not-kim@example.com', current_password: 'a guess at it' });
    expect([wrong.status, wrong.body.errors]).toEqual([422, { current_password: ['is incorrect'] }]);
    await expect(mailTo(api, 'not-kim@example.com')).rejects.toThrow(/No mail to not-kim@example.com/);
    expect((await api.call('GET', '/user', as(session))).body.data).toMatchObject({ name: 'Kim', email: 'kim@example.com' });

    // A name needs nothing more.
    const renamed = await patch({ name: 'Kimberly' });
    expect([renamed.status, renamed.body.data.name]).toEqual([200, 'Kimberly']);

    // With the password, the link goes out as usual; the password is not in the answer.
    const asked = await patch({ email: 'kim.new@example.com', current_password: password });
    expect([asked.status, asked.body.data.email]).toEqual([200, 'kim@example.com']);
    expect(JSON.stringify(asked.body)).not.toContain(password);
    expect((await pressLink(api, linkIn(await mailTo(api, 'kim.new@example.com'), /\/email\/change\//))).status).toBe(200);
    expect((await api.call('GET', '/user', as(session))).body.data.email).toBe('kim.new@example.com');
  });

  it('counts wrong passwords with those of PUT /user/password: five in all within 15 minutes, then 429 even for the right one', async () => {
    await awayFromWindowEnd(accountThrottles.passwordChange);
    const { userId, session } = await registerVerified(api, { name: 'Wes', email: 'wes@example.com', password });
    const changeEmail = (currentPassword: string) =>
      api.call('PATCH', `/users/${userId}`, as(session, { body: { email: 'wes.new@example.com', current_password: currentPassword } }));
    const changePassword = (currentPassword: string) =>
      api.call('PUT', '/user/password', as(session, { body: { current_password: currentPassword, password: 'wes new password' } }));

    // A right password does not count.
    expect((await changeEmail(password)).status).toBe(200);
    for (const guess of ['guess 1', 'guess 2', 'guess 3']) expect((await changeEmail(guess)).status).toBe(422);
    for (const guess of ['guess 4', 'guess 5']) expect((await changePassword(guess)).status).toBe(422);
    for (const blocked of [await changeEmail(password), await changePassword(password)]) {
      expect([blocked.status, blocked.body.error_code]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
    }
    expect((await login(api, 'wes@example.com', password)).answer.status).toBe(200);
  });

  it('lets nobody but the user change an account, not even the owner of a workspace they joined (403)', async () => {
    const member = await joinAsMember(api, undefined, { name: 'Val', email: 'val@example.com', password });
    // Even with the member's password: the account is the member's alone.
    const byOwner = await api.call('PATCH', `/users/${member.userId}`, {
      body: { email: 'owner-choice@example.com', current_password: password },
    });
    expect(byOwner.status).toBe(403);
  });
});

describe('mailed links', () => {
  it('stop working 60 minutes after they were sent (a runner on a clock the test moves)', async () => {
    const clock = manualClock(new Date());
    const timed = await startTestApi({ overrides: { clock } });
    try {
      const call = (method: string, path: string, body?: unknown) => timed.call(method, `${timed.runner.origin}${path}`, { key: '', body });
      expect((await register(timed, { name: 'Tim', email: 'tim@example.com', password })).status).toBe(202);
      const verify = linkIn(await mailTo(timed, 'tim@example.com'), /\/email\/verify\//);
      expect((await call('POST', '/forgot-password', { email: 'tim@example.com' })).status).toBe(202);
      const token = new URL(linkIn(await mailTo(timed, 'tim@example.com'), /\/reset-password\//)).pathname.split('/').at(-1)!;

      clock.advance(61 * 60 * 1000);
      expect((await pressLink(timed, verify)).status).toBe(403);
      const reset = await call('POST', '/reset-password', {
        token,
        email: 'tim@example.com',
        password: 'too late now',
        password_confirmation: 'too late now',
      });
      expect([reset.status, Object.keys(reset.body.errors)]).toEqual([422, ['token']]);
      expect((await login(timed, 'tim@example.com', password)).answer.status).toBe(200);
    } finally {
      await timed.stop();
    }
  });
});

describe('passwords longer than 72 bytes', () => {
  it('are refused at registration, and never open an account whose password is their first 72 bytes', async () => {
    const long = await register(api, { name: 'Long', email: 'long@example.com', password: `${'P'.repeat(72)}secretTail` });
    expect(long.status).toBe(422);
    expect(long.body.errors.password).toEqual([expect.stringContaining('72 bytes')]);
    expect((await register(api, { name: 'Pat', email: 'p72@example.com', password: 'P'.repeat(72) })).status).toBe(202);
    expect((await login(api, 'p72@example.com', 'P'.repeat(72))).answer.status).toBe(200);
    const wrong = await publicCall('POST', '/login', { email: 'p72@example.com', password: `${'P'.repeat(72)}WRONGWRONG` });
    expect([wrong.status, wrong.body.error_code]).toEqual([401, 'INVALID_CREDENTIALS']);
  });
});
