import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createUser as create } from '#core/domain/users';
import { tierNames, type Tier } from '#core/tiers';
import { parseOptions, required, UsageError, type Command } from './command.ts';

export const createUser: Command = {
  name: 'create-user',
  summary: 'create a user (a workspace owner or admin then adds them with POST /users)',
  options: [
    '  --email <email>        required; unique (409 when taken)',
    '  --name <name>          required',
    '  --password <password>  at least 8 characters (default: generated and printed once)',
    `  --tier <tier>          ${tierNames.join(', ')} (default free)`,
    '  --admin                a platform admin: may suspend workspaces and register OAuth clients',
  ],
  async run(args, { open, print }) {
    const options = parseOptions(args, {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      tier: { type: 'string', default: 'free' },
      admin: { type: 'boolean', default: false },
    });
    const email = required(options.email, 'email');
    const name = required(options.name, 'name');
    if (!z.email().safeParse(email).success) throw new UsageError('--email must be an email address');
    if (!(tierNames as readonly string[]).includes(options.tier)) throw new UsageError(`--tier must be one of ${tierNames.join(', ')}`);
    if (options.password !== undefined && options.password.length < 8) throw new UsageError('--password must be at least 8 characters');
    const password = options.password ?? randomBytes(12).toString('base64url');
    const user = await create(await open(options.stack), {
      email,
      name,
      password,
      tier: options.tier as Tier,
      platformAdmin: options.admin,
    });
    print(`Created user ${user.id}: ${user.name} <${user.email}>, tier ${user.tier}${user.platformAdmin ? ', platform admin' : ''}`);
    if (options.password === undefined) print(`  password: ${password}  (generated; shown once)`);
    print('  They belong to no workspace yet: an owner or admin adds them with POST /users and this email.');
  },
};
