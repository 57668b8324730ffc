import { sessionCookie, xsrfCookie } from '#core/credentials/credential-header';

/**
 * The session cookie is HttpOnly, so scripts never see it; XSRF-TOKEN is readable, so a
 * first-party script can echo it in X-XSRF-TOKEN. Both are Secure whenever the request
 * came over HTTPS, which is always the case behind API Gateway.
 */
function cookie(name: string, value: string, maxAgeSeconds: number, options: { httpOnly: boolean; secure: boolean }) {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'SameSite=Lax',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

export function sessionCookies(sessionId: string, xsrfToken: string, maxAgeSeconds: number, secure: boolean): string[] {
  return [
    cookie(sessionCookie, sessionId, maxAgeSeconds, { httpOnly: true, secure }),
    cookie(xsrfCookie, xsrfToken, maxAgeSeconds, { httpOnly: false, secure }),
  ];
}

export const clearedCookies = (secure: boolean): string[] => sessionCookies('', '', 0, secure);
