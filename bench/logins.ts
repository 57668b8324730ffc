import type { BootstrapResult } from '#core/operations/bootstrap';
import { type Counters, tally } from './counters.ts';
import { type Answer, expectStatus, send } from './http.ts';

/**
 * Failed logins count against the email (5) and the client address (20 per 15 minutes),
 * so each failure here has its own email, or a few tries of one, and at most ten share a
 * loopback address: every attempt is then checked in full, none answered 429 early.
 */
const failureAddress = (i: number) => `127.0.0.${10 + Math.floor(i / 5)}`; // two failures per i
const wrongPasswordTries = 3;

/**
 * POST /login with the right password, an unknown email and a wrong password, interleaved, so
 * that each kind's figures meet the same machine.
 */
export async function measureLogins(origin: string, bootstrap: BootstrapResult, counters: Counters, n: { ok: number; failed: number }) {
  const login = (email: string, password: string, localAddress?: string) =>
    send('POST', `${origin}/login`, { body: { email, password }, localAddress });
  const run = Date.now().toString(36);
  // Throwaway users for the wrong passwords, registered before anything is timed.
  const emailOf = (i: number) => `bench-${run}-${Math.floor(i / wrongPasswordTries)}@example.com`;
  for (let i = 0; i < n.failed; i += wrongPasswordTries) {
    const body = { name: `Bench ${i}`, email: emailOf(i), password: `right-password-${i}` };
    expectStatus(await send('POST', `${origin}/register`, { body }), 202, 'POST /register');
  }

  const [ok, unknownEmail, wrongPassword] = [tally(counters), tally(counters), tally(counters)];
  let last: Answer | undefined;
  for (let i = 0; i < Math.max(n.ok, n.failed); i++) {
    if (i < n.ok) {
      await ok.time(
        async () => (last = expectStatus(await login(bootstrap.email, bootstrap.password), 200, 'POST /login (right password)')),
      );
    }
    if (i >= n.failed) continue;
    await unknownEmail.time(async () =>
      expectStatus(
        await login(`nobody-${run}-${i}@example.com`, 'not-the-password', failureAddress(i)),
        401,
        'POST /login (unknown email)',
      ),
    );
    await wrongPassword.time(async () =>
      expectStatus(await login(emailOf(i), 'wrong-password', failureAddress(i)), 401, 'POST /login (wrong password)'),
    );
  }
  return { ok: ok.figures(), unknownEmail: unknownEmail.figures(), wrongPassword: wrongPassword.figures(), lastLogin: last! };
}
