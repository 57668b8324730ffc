import { registerVerified } from '../support/accounts.ts';
import { type ApiAnswer, startTestApi, type TestApi } from '../support/local-api.ts';
import { as } from '../support/sessions.ts';

// Read by config() on first use, which is when the runner starts (beforeAll): the form routes are OAuth's.
process.env.OAUTH_ENABLED = '1';

/**
 * What a hostile client may send that is not text or not one value per key: bytes that are
 * not UTF-8, lone UTF-16 surrogates, keys twice in one object, and control or bidirectional
 * formatting characters in names. Each is refused, naming where, on every route it reaches.
 */
let api: TestApi;
let workspaceId: string;
let userId: number;
let namespaceId: string;
beforeAll(async () => {
  api = await startTestApi({ over: 'http' });
  workspaceId = (await api.call('POST', '/workspaces', { body: { name: 'Strict' } })).body.data.id;
  userId = (await api.call('GET', '/user')).body.data.id;
  namespaceId = (await api.call('GET', '/namespaces')).body.data[0].id;
});
afterAll(() => api.stop());

const expectInvalidFormat = (answer: ApiAnswer, where?: string) => {
  expect([answer.status, answer.body.error, answer.body.error_code]).toEqual([400, 'bad_request', 'INVALID_FORMAT']);
  if (where !== undefined) {
    expect(Object.keys(answer.body.errors)).toEqual([where]);
    expect(answer.body.message).toContain(where);
  }
};

/** JSON text around raw bytes: `{"name":"` + bytes + `"}`. */
const withBytes = (before: string, bytes: number[], after: string) =>
  Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);

type Send = (body: string | Uint8Array) => Promise<ApiAnswer>;

/** Routes that take a JSON body with a `name` (but login), as a credential that may call them sends it; `rest` completes a valid body. */
const jsonRoutes: [method: string, path: string, send: Send, rest: Record<string, unknown>][] = [
  ['POST', '/workspaces', (rawBody) => api.call('POST', '/workspaces', { rawBody }), {}],
  ['PATCH', '/workspaces/{id}', (rawBody) => api.call('PATCH', `/workspaces/${workspaceId}`, { rawBody }), {}],
  ['POST', '/api-keys', (rawBody) => api.call('POST', '/api-keys', { rawBody }), {}],
  ['PATCH', '/users/{user_id}', (rawBody) => api.call('PATCH', `/users/${userId}`, { rawBody }), {}],
  [
    'POST',
    '/admin/namespaces/{namespace_id}/packages',
    (rawBody) => api.call('POST', `/admin/namespaces/${namespaceId}/packages`, { rawBody }),
    { entitlements: { storage: 1 } },
  ],
  ['POST', '{base_url}/login', (rawBody) => api.call('POST', `${api.runner.origin}/login`, { key: '', rawBody }), {}],
];
const named = jsonRoutes.filter(([, path]) => !path.endsWith('/login'));

describe('bodies that are not UTF-8', () => {
  // A stray continuation byte, a lead byte cut short, an overlong "/", an encoded surrogate (CESU-8), past U+10FFFF.
  const invalid = [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]];

  it.each(jsonRoutes)('%s %s answers 400 INVALID_FORMAT', async (_m, _p, send) => {
    for (const bytes of invalid) {
      const answer = await send(withBytes('{"name":"a', bytes, 'b"}'));
      expectInvalidFormat(answer);
      expect(answer.body.message).toContain('UTF-8');
    }
  });

  it('refuses them in a form body too, raw or percent-encoded, and still reads a UTF-8 form', async () => {
    const token = (rawBody: string | Uint8Array) =>
      api.call('POST', `${api.runner.origin}/oauth/token`, {
        key: '',
        rawBody,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    expectInvalidFormat(await token(withBytes('grant_type=client_credentials&client_id=a', [0xff], '')));
    const encoded = await token('grant_type=client_credentials&client_id=%C3%28');
    expectInvalidFormat(encoded);
    expect(encoded.body.message).toContain('"client_id"');
    // Well-formed, with a lone "%" read as itself: past the encoding checks to OAuth's own rules (RFC 6749 allows ASCII only).
    const oauth = await token('grant_type=client_credentials&client_id=client_unknown&client_secret=caf%C3%A9+%E2%82%AC+100%');
    expect([oauth.body.error_code, oauth.body.error_description]).toEqual(['INVALID_REQUEST', 'Invalid parameter: `client_secret`']);
  });

  it('answers a refused credential before a body that is not UTF-8, and an unknown path with 404 whatever the body', async () => {
    expect((await api.call('POST', '/workspaces', { key: '', rawBody: Buffer.from([0xff]) })).status).toBe(401);
    expect((await api.call('POST', '/nowhere', { rawBody: Buffer.from([0xff]) })).status).toBe(404);
  });

  it('accepts UTF-8 beyond ASCII, and a leading byte order mark', async () => {
    const name = 'Café ☕ 😀 مساحة';
    const created = await api.call('POST', '/workspaces', { rawBody: Buffer.from(JSON.stringify({ name })) });
    expect([created.status, created.body.data.name]).toEqual([201, name]);
    const bom = await api.call('POST', '/workspaces', {
      rawBody: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Bom"}')]),
    });
    expect(bom.status).toBe(201);
  });

  it('counts the limit in the bytes sent', async () => {
    const answer = await api.call('POST', '/workspaces', { rawBody: Buffer.from(JSON.stringify({ name: 'é'.repeat(140 * 1024) })) });
    expect([answer.status, answer.body.limit]).toEqual([413, 256 * 1024]);
  });
});

describe('lone UTF-16 surrogates', () => {
  it('are refused in a value, naming its field, at any depth and in arrays', async () => {
    const record = (rawBody: string) => api.call('POST', '/entitlements/usage', { rawBody });
    expectInvalidFormat(await record('{"feature":"storage","quantity":1,"metadata":{"file":"a\\ud800"}}'), 'metadata.file');
    expectInvalidFormat(await record('{"feature":"storage","quantity":1,"metadata":{"files":["ok","\\udc00b"]}}'), 'metadata.files.1');
    expectInvalidFormat(await record('{"feature":"storage","quantity":1,"metadata":{"a":{"b":[{"c":"\\uDBFF"}]}}}'), 'metadata.a.b.0.c');
    // A pair of escapes is one code point: kept and echoed as it came.
    const paired = await record('{"feature":"storage","quantity":1,"metadata":{"file":"\\ud83d\\ude00"}}');
    expect([paired.status, paired.body.metadata]).toEqual([200, { file: '😀' }]);
  });

  it('are refused in a key, naming it escaped', async () => {
    const answer = await api.call('POST', '/entitlements/usage', {
      rawBody: '{"feature":"storage","quantity":1,"metadata":{"\\ud800x":1}}',
    });
    expectInvalidFormat(answer, 'metadata.\\ud800x');
  });

  it.each(named)('%s %s refuses one in a name', async (_m, _p, send, rest) => {
    // JSON.stringify writes a lone surrogate as the escape \ud800, as a hostile client would.
    expectInvalidFormat(await send(JSON.stringify({ name: 'x\ud800', ...rest })), 'name');
  });
});

describe('bytes that are not UTF-8 in the URL', () => {
  it.each(['%ff', '%ed%a0%80', '%c0%af'])('are refused in a query parameter (%s) with 400 INVALID_FORMAT naming it', async (bytes) => {
    const answer = await api.call('GET', `/workspaces?search=a${bytes}b`);
    expectInvalidFormat(answer, 'search');
  });

  it('leave UTF-8 text alone, and a path that is not an id is still just a bad id', async () => {
    expect((await api.call('GET', '/api-keys/key_%ff')).status).toBe(422);
    const found = await api.call('GET', `/workspaces?search=${encodeURIComponent('Zürich 😀')}`);
    expect(found.status).toBe(200);
  });
});

describe('keys given twice in one object', () => {
  it.each(jsonRoutes)('%s %s refuses them, naming the key', async (_m, _p, send) => {
    const answer = await send('{"name":"first","name":"second"}');
    expectInvalidFormat(answer, 'name');
    expect(answer.body.message).toContain('"name"');
  });

  it('are refused at any depth and however the key is escaped, while the same key in two objects is fine', async () => {
    const nested = await api.call('POST', '/workspaces', {
      rawBody: '{"name":"n","settings":{"timezone":"UTC","timezone":"Europe/Berlin"}}',
    });
    expectInvalidFormat(nested, 'settings.timezone');
    expectInvalidFormat(await api.call('POST', '/workspaces', { rawBody: '{"name":"a","n\\u0061me":"b"}' }), 'name');
    const metadata = { a: { x: 1 }, b: { x: 1 }, list: [{ x: 1 }, { x: 2 }] };
    const recorded = await api.call('POST', '/entitlements/usage', { body: { feature: 'storage', quantity: 1, metadata } });
    expect([recorded.status, recorded.body.metadata]).toEqual([200, metadata]);
  });
});

describe('nesting deeper than a body may go', () => {
  /** `[[[…]]]`, `depth` levels deep, as a value. */
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const mcp = { Accept: 'application/json, text/event-stream' };

  // Every door that turns a body back into text: an idempotency fingerprint, a forwarded tool call, the MCP server.
  it.each([
    [
      'POST',
      '/resources/batch',
      `{"operations":[{"action":"create","data":{"title":"x","content":${deep(4200)}}}]}`,
      { 'Idempotency-Key': 'deep-batch' },
    ],
    ['POST', '/mcp/tools/call', `{"server":"posts","tool":"create_post","arguments":{"title":"x","content":${deep(4200)}}}`, {}],
    ['POST', '/mcp', `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":${deep(4200)}}}}`, mcp],
    ['POST', '/entitlements/usage', `{"feature":"storage","quantity":1,"metadata":${deep(20_000)}}`, {}],
  ])('%s %s refuses it as malformed, naming where, before anything runs', async (method, path, rawBody, headers) => {
    const answer = await api.call(method, path, { rawBody, headers });
    expect([answer.status, answer.body.error_code]).toEqual([400, 'INVALID_FORMAT']);
    expect(answer.body.message).toContain('deeper than 64 levels');
  });

  it('takes a body nested as deep as a real one goes', async () => {
    const metadata = { a: { b: { c: { d: [[[{ e: 1 }]]] } } } };
    const recorded = await api.call('POST', '/entitlements/usage', { body: { feature: 'storage', quantity: 1, metadata } });
    expect([recorded.status, recorded.body.metadata]).toEqual([200, metadata]);
  });
});

describe('control and bidirectional formatting characters in single-line fields', () => {
  const refused = [
    'a\u0000b',
    'line\nbreak',
    'carriage\rreturn',
    'tab\there',
    'del\u007f',
    'c1\u0085',
    'sep\u2028arator',
    'evil\u202Egnp.exe',
    'iso\u2066late',
    'trailing\n',
  ];

  const expectRefusedName = (answer: ApiAnswer, field = 'name') => {
    expect([answer.status, answer.body.error_code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(answer.body.errors[field]).toHaveLength(1);
    expect(answer.body.errors[field][0]).toMatch(/^must be a single line of text .*; U\+[0-9A-F]{4} is not allowed$/);
  };

  it.each(named)('%s %s refuses them in name with 422 naming the character', async (_m, _p, send, rest) => {
    for (const name of refused) expectRefusedName(await send(JSON.stringify({ name, ...rest })));
    expect((await send(JSON.stringify({ name: 'a\u0000b', ...rest }))).body.errors.name[0]).toContain('U+0000');
  });

  it('refuses them in an API key name and a user token name as well, and in a webhook URL and a search', async () => {
    const account = await registerVerified(api, { name: 'Tokens', email: 'tokens@strict.example', password: 'correct horse battery' });
    expectRefusedName(await api.call('POST', '/user/tokens', as(account.session, { body: { name: 'ci\nbot' } })));
    expectRefusedName(await api.call('POST', '/webhooks', { body: { url: 'https://example.com/\thook', events: ['*'] } }), 'url');
    expectRefusedName(await api.call('GET', '/workspaces?search=a%0Ab'), 'search');
  });

  it('refuses register with such a name, before anything is mailed', async () => {
    const answer = await api.call('POST', `${api.runner.origin}/register`, {
      key: '',
      body: { name: 'Eve\u202E', email: 'eve@strict.example', password: 'correct horse battery' },
    });
    expectRefusedName(answer);
  });

  it('keeps names in any script, with emoji joiners and direction marks', async () => {
    for (const name of ['Zoë & Co', '👩‍💻 team', 'שלום\u200E 2', '東京']) {
      const created = await api.call('POST', '/workspaces', { body: { name } });
      expect([created.status, created.body.data.name]).toEqual([201, name]);
    }
  });

  it('allows line breaks, but not NUL, in the multi-line reason of a suspension', async () => {
    const target = (await api.call('POST', '/workspaces', { body: { name: 'To suspend' } })).body.data.id;
    const nul = await api.call('POST', `/admin/workspaces/${target}/suspend`, { body: { reason: 'unpaid\u0000' } });
    expect([nul.status, Object.keys(nul.body.errors)]).toEqual([422, ['reason']]);
    const suspended = await api.call('POST', `/admin/workspaces/${target}/suspend`, {
      body: { reason: 'Unpaid invoice.\nSee ticket 42.' },
    });
    expect(suspended.status).toBe(200);
  });
});
