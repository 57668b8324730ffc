import { config } from '#core/config';
import { login, logout, register, sessionLifetimeMs } from '#core/domain/sessions';
import { AccessDenied } from '#core/errors';
import type { HandlersFor } from '#core/http/types';
import type { sessionRoutes } from './routes.ts';
import { clearedCookies, sessionCookies } from './cookies.ts';

const overHttps = (headers: Record<string, string>) => headers['x-forwarded-proto'] !== 'http';

export const sessionHandlers: HandlersFor<(typeof sessionRoutes)[number]> = {
  register: async ({ body }, deps) => {
    if (!config().REGISTRATION_ENABLED) throw new AccessDenied('Registration is closed on this service.');
    const { user } = await register(deps, body);
    return { status: 201, body: { message: 'Registered. Log in to start a session.', data: user } };
  },
  login: async ({ body, sourceIp, headers }, deps) => {
    const session = await login(deps, { ...body, sourceIp });
    return {
      status: 200,
      body: { data: session.user },
      cookies: sessionCookies(session.sessionId, session.xsrfToken, sessionLifetimeMs / 1000, overHttps(headers)),
    };
  },
  logout: async ({ principal, headers }, deps) => {
    await logout(deps, principal.credential.id);
    return { status: 204, cookies: clearedCookies(overHttps(headers)) };
  },
};
