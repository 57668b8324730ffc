import { grants, isKnownScope } from '#core/access/scopes';

describe('scope grammar', () => {
  it('grants an exact scope', () => {
    expect(grants(['workspaces:read'], 'workspaces:read')).toBe(true);
    expect(grants(['workspaces:read'], 'workspaces:write')).toBe(false);
  });

  it('grants every action of a resource with resource:*', () => {
    expect(grants(['workspaces:*'], 'workspaces:delete')).toBe(true);
    expect(grants(['workspaces:*'], 'api-keys:read')).toBe(false);
  });

  it('grants one action on every resource with *:action', () => {
    expect(grants(['*:read'], 'api-keys:read')).toBe(true);
    expect(grants(['*:read'], 'api-keys:write')).toBe(false);
  });

  it('grants everything with * and admin:*', () => {
    expect(grants(['*'], 'webhooks:delete')).toBe(true);
    expect(grants(['admin:*'], 'webhooks:delete')).toBe(true);
  });

  it('expands the aliases of docs/decisions.md', () => {
    expect(grants(['read:all'], 'seo:read')).toBe(true);
    expect(grants(['read:all'], 'seo:write')).toBe(false);
    expect(grants(['write:resources'], 'posts:write')).toBe(true);
    expect(grants(['webhooks:manage'], 'webhooks:delete')).toBe(true);
    expect(grants(['webhooks:manage'], 'api-keys:read')).toBe(false);
    expect(grants(['keys:manage'], 'api-keys:write')).toBe(true);
  });

  it('a narrower credential does not grant a wildcard it does not hold', () => {
    expect(grants(['workspaces:*'], '*:read')).toBe(false);
    expect(grants(['*:read'], '*:read')).toBe(true);
    expect(grants(['*'], '*')).toBe(true);
    expect(grants(['admin:*'], '*:write')).toBe(true);
  });

  it('knows the scopes of the spec, the aliases and well-formed wildcards only', () => {
    for (const scope of ['posts:read-content', 'api-keys:delete', 'keys:manage', 'read:all', '*', '*:read', 'seo:*']) {
      expect(isKnownScope(scope)).toBe(true);
    }
    for (const scope of ['', 'posts', 'posts:fly', 'ships:read', '*:fly', 'a:b:c', ':read', 'posts:']) {
      expect(isKnownScope(scope)).toBe(false);
    }
  });
});
