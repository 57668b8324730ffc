import { z } from 'zod';
import { apiKeyRandomLength, parseApiKey } from '#core/api-keys/api-key-format';
import { bootstrapAdmin } from '#core/operations/bootstrap';
import { type Command, checkPassword, parseOptions, UsageError } from './command.ts';

export const bootstrap: Command = {
  name: 'bootstrap',
  summary: 'on an empty store: an admin user, an enterprise workspace and an API key with scope *',
  options: [
    "  --email <email>        the admin user's login (default admin@example.com)",
    '  --password <password>  8 characters to 72 bytes (default: generated)',
    '  --api-key <key>        a full sk_live_… or sk_test_… key to store (default: generated)',
  ],
  notes: 'Prints the credentials once. On a store that already has users it creates nothing, says so, and exits 0.',
  async run(args, { open, print }) {
    const options = parseOptions(args, {
      email: { type: 'string' },
      password: { type: 'string' },
      'api-key': { type: 'string' },
    });
    if (options.email !== undefined && !z.email().safeParse(options.email).success)
      throw new UsageError('--email must be an email address');
    if (options.password !== undefined) checkPassword(options.password);
    const apiKey = options['api-key'];
    if (apiKey !== undefined && !parseApiKey(apiKey)) {
      throw new UsageError(
        `--api-key must be a full sk_live_… or sk_test_… key (${apiKeyRandomLength} letters or digits after the prefix)`,
      );
    }
    const result = await bootstrapAdmin(await open(options.stack), { email: options.email, password: options.password, apiKey });
    if (!result) {
      print('Already bootstrapped: the store has users, so nothing was created.');
      print('Add users with create-user; the first credentials were shown when the store was bootstrapped.');
      return;
    }
    print('Bootstrapped an empty store. These are shown once:');
    print(`  API key:   ${result.apiKey}`);
    print(`  email:     ${result.email}`);
    print(`  password:  ${result.password}`);
    print(`  user:      ${result.userId} (platform admin)`);
    print(`  workspace: ${result.workspaceId} (tier enterprise)`);
  },
};
