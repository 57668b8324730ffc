import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createAccount } from '#core/accounts/new-account';
import { defaultTier, type Tier, tierNames } from '#core/platform/tiers';
import { passwordByteLimit, passwordMinLength } from '#core/users/passwords';
import { type Command, checkPassword, parseOptions, required, UsageError } from './command.ts';

export const createUser: Command = {
  name: 'create-user',
  summary: 'create a user with a verified email and a personal workspace (others then invite them with POST /users)',
  options: [
    '  --email <email>        required; unique (409 when taken)',
    '  --name <name>          required',
    `  --password <password>  ${passwordMinLength} characters to ${passwordByteLimit} bytes (default: generated and printed once)`,
    `  --tier <tier>          ${tierNames.join(', ')} (default ${defaultTier})`,
    '  --admin                a platform admin: may suspend workspaces and register OAuth clients',
  ],
  async run(args, { open, print }) {
    const options = parseOptions(args, {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      tier: { type: 'string', default: defaultTier },
      admin: { type: 'boolean', default: false },
    });
    const email = required(options.email, 'email');
    const name = required(options.name, 'name');
    if (!z.email().safeParse(email).success) throw new UsageError('--email must be an email address');
    if (!(tierNames as readonly string[]).includes(options.tier)) throw new UsageError(`--tier must be one of ${tierNames.join(', ')}`);
    if (options.password !== undefined) checkPassword(options.password);
    const password = options.password ?? randomBytes(12).toString('base64url');
    const { user, workspace } = await createAccount(await open(options.stack), {
      email,
      name,
      password,
      tier: options.tier as Tier,
      platformAdmin: options.admin,
      emailVerified: true,
    });
    print(`Created user ${user.id}: ${user.name} <${user.email}>, tier ${user.tier}${user.platformAdmin ? ', platform admin' : ''}`);
    if (options.password === undefined) print(`  password: ${password}  (generated; shown once)`);
    print(
      `  workspace: ${workspace.id} (theirs, tier ${workspace.tier}); owners of other workspaces invite them with POST /users and this email.`,
    );
  },
};
