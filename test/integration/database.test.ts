import { createUser } from '#core/users/users';
import { testDeps } from '../support/deps.ts';

describe('databases', () => {
  it('keep to their own table when several live in one process', async () => {
    const first = await testDeps();
    const second = await testDeps();
    const user = await createUser(first, { name: 'Solo', email: 'solo@example.com', tier: 'free' });
    const { data: inFirst } = await first.db.entities.user.get({ id: user.id }).go();
    const { data: inSecond } = await second.db.entities.user.get({ id: user.id }).go();
    expect(inFirst?.email).toBe('solo@example.com');
    expect(inSecond).toBeNull();
  });
});
