import { readScopesFor, subscribes, subscriptionProblem } from '#core/events/subscriptions';

describe('subscription patterns', () => {
  it.each(['workspace.created', 'api_key.*', '*', 'user.*'])('accepts %s', (pattern) => {
    expect(subscriptionProblem(pattern)).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__.*', 'constructor.*'])(
    'refuses %s, a key of every object but no event type',
    (pattern) => {
      expect(subscriptionProblem(pattern)).toMatch(/is not an event type|names no resource/);
    },
  );

  it.each([
    ['user.created', 'no endpoint could hear of it'],
    ['link.clicked', 'no tracked links'],
    ['qrcode.scanned', 'no QR codes'],
  ])('refuses %s, a type the spec names that is never sent here, saying why', (pattern, why) => {
    expect(subscriptionProblem(pattern)).toMatch(new RegExp(`^"${pattern}" is never sent: .*${why}`));
  });

  it.each(['link.*', 'qrcode.*'])('refuses %s, which names no resource with events', (pattern) => {
    expect(subscriptionProblem(pattern)).toBe(`"${pattern}" names no resource with events`);
  });

  it('refuses webhook.test, which only a test send delivers', () => {
    expect(subscriptionProblem('webhook.test')).toContain('POST /webhooks/{id}/test');
  });

  it('subscribes by exact name, by resource and by *', () => {
    expect(subscribes(['api_key.created'], 'api_key.created')).toBe(true);
    expect(subscribes(['api_key.*'], 'api_key.revoked')).toBe(true);
    expect(subscribes(['*'], 'member.added')).toBe(true);
    expect(subscribes(['api_key.*', 'workspace.created'], 'workspace.updated')).toBe(false);
  });
});

describe('the read scopes a subscription needs', () => {
  it.each([
    [
      ['*'],
      ['workspaces:read', 'api-keys:read', 'users:read', 'namespaces:read', 'webhooks:read', 'posts:read', 'categories:read', 'seo:read'],
    ],
    [['api_key.*'], ['api-keys:read']],
    [['member.added', 'invitation.*', 'user.updated'], ['users:read']],
    [
      ['workspace.deleted', 'namespace.updated'],
      ['workspaces:read', 'namespaces:read'],
    ],
    [['webhook.*'], ['webhooks:read']],
    [
      ['post.*', 'category.created'],
      ['posts:read', 'categories:read'],
    ],
  ])('%j needs %j', (patterns, scopes) => {
    expect(readScopesFor(patterns)).toEqual(scopes);
  });
});
