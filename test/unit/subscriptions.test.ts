import { readScopesFor, subscriptionProblem, subscribes } from '#core/events/subscriptions';

describe('subscription patterns', () => {
  it.each(['workspace.created', 'api_key.*', '*', 'link.clicked'])('accepts %s', (pattern) => {
    expect(subscriptionProblem(pattern)).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__.*', 'constructor.*'])(
    'refuses %s, a key of every object but no event type',
    (pattern) => {
      expect(subscriptionProblem(pattern)).toMatch(/is not an event type|names no resource/);
    },
  );

  it.each([
    ['link.*', 'link.clicked'],
    ['qrcode.*', 'qrcode.scanned'],
  ])('refuses %s, which could never match: its types are opt-in, sent only where named exactly', (pattern, exact) => {
    expect(subscriptionProblem(pattern)).toBe(`"${pattern}" cannot subscribe to opt-in types, which are sent only where named exactly: name ${exact}`);
  });

  it('refuses webhook.test, which only a test send delivers', () => {
    expect(subscriptionProblem('webhook.test')).toContain('POST /webhooks/{id}/test');
  });

  it('lets only an exact name subscribe to an opt-in type', () => {
    expect(subscribes(['link.clicked'], 'link.clicked')).toBe(true);
    expect(subscribes(['*'], 'link.clicked')).toBe(false);
    expect(subscribes(['*'], 'api_key.created')).toBe(true);
  });
});

describe('the read scopes a subscription needs', () => {
  it.each([
    [['*'], ['workspaces:read', 'api-keys:read', 'users:read', 'namespaces:read', 'webhooks:read']],
    [['api_key.*'], ['api-keys:read']],
    [['member.added', 'invitation.*', 'user.updated'], ['users:read']],
    [['workspace.deleted', 'namespace.updated'], ['workspaces:read', 'namespaces:read']],
    [['link.clicked', 'qrcode.scanned'], ['analytics:read']],
    [['webhook.*'], ['webhooks:read']],
  ])('%j needs %j', (patterns, scopes) => {
    expect(readScopesFor(patterns)).toEqual(scopes);
  });
});
