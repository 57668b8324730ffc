import { type IncomingHttpHeaders, request } from 'node:http';

export interface Answer {
  status: number;
  body: string;
  /** Set-Cookie values, as name → value. */
  cookies: Record<string, string>;
  headers: IncomingHttpHeaders;
}

/**
 * One JSON request on a fresh connection. `localAddress` picks the client's loopback
 * address (any of 127.0.0.0/8 works on Linux), i.e. the source IP the runner sees.
 */
export function send(
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = {
    ...options.headers,
    ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) } : {}),
  };
  return new Promise((done, fail) => {
    const req = request(url, { method, headers, localAddress: options.localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const cookies = Object.fromEntries(
          (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!.split(/=(.*)/s, 2) as [string, string]),
        );
        done({ status: res.statusCode ?? 0, body, cookies, headers: res.headers });
      });
    });
    req.on('error', fail);
    req.end(payload);
  });
}

export function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}, expected ${status}: ${answer.body}`);
  return answer;
}

/** The headers a browser session sends: both cookies, and the XSRF token echoed for unsafe methods. */
export function sessionHeaders(login: Answer, unsafe = false): Record<string, string> {
  const { session, 'XSRF-TOKEN': xsrf } = login.cookies;
  if (!session || !xsrf) throw new Error(`login set no session and XSRF-TOKEN cookies: ${JSON.stringify(login.cookies)}`);
  return { Cookie: `session=${session}; XSRF-TOKEN=${xsrf}`, ...(unsafe ? { 'X-XSRF-TOKEN': xsrf } : {}) };
}

/** A user token `<id>|<secret>`, issued as a user would: log in, then POST /user/tokens with the session. */
export async function createUserToken(
  origin: string,
  baseUrl: string,
  user: { email: string; password: string },
  name: string,
): Promise<string> {
  const login = expectStatus(
    await send('POST', `${origin}/login`, { body: { email: user.email, password: user.password } }),
    200,
    'POST /login',
  );
  const answer = expectStatus(
    await send('POST', `${baseUrl}/user/tokens`, { body: { name }, headers: sessionHeaders(login, true) }),
    201,
    'POST /user/tokens',
  );
  const token = (JSON.parse(answer.body) as { data?: { token?: string } }).data?.token;
  if (!token?.includes('|')) throw new Error(`POST /user/tokens answered no token: ${answer.body}`);
  return token;
}
