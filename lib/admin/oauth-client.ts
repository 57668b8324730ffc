import type { NewOAuthClient } from '#core/oauth/clients';
import { workspaceId as workspaceIdSchema } from '#core/tenancy/workspace-schemas';
import { type Command, idOption, parseOptions, required, UsageError } from './command.ts';

export const createOAuthClient: Command = {
  name: 'oauth-client create',
  summary: 'register an OAuth client; a confidential one gets a secret, shown once',
  options: [
    '  --name <name>          required',
    '  --owner-user <id>      required: the user (an integer id) the client acts for',
    '  --workspace <id>       required: a workspace of that user',
    '  --redirect-uri <uri>   repeatable; at least one for authorization_code',
    '  --grant <grant>        repeatable, at least one: authorization_code, client_credentials',
    '  --scope <scope>        repeatable, at least one: what the client may ask for',
    '  --public               a public client (PKCE, no secret); default confidential',
  ],
  async run(args, { open, print }) {
    const options = parseOptions(args, {
      name: { type: 'string' },
      'owner-user': { type: 'string' },
      workspace: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true, default: [] },
      grant: { type: 'string', multiple: true, default: [] },
      scope: { type: 'string', multiple: true, default: [] },
      public: { type: 'boolean', default: false },
    });
    const name = required(options.name, 'name');
    const owner = required(options['owner-user'], 'owner-user');
    if (!/^[1-9]\d*$/.test(owner)) throw new UsageError('--owner-user must be a user id (a positive integer)');
    const workspaceId = idOption(workspaceIdSchema, required(options.workspace, 'workspace'), 'workspace');
    if (!options.grant.length) throw new UsageError('--grant is required (authorization_code or client_credentials)');
    if (!options.scope.length) throw new UsageError('--scope is required');
    // Loaded when used: the rest of the CLI does not depend on the OAuth module.
    const { registerOAuthClient } = await import('#core/oauth/clients');
    const registered = await registerOAuthClient(await open(options.stack), {
      name,
      ownerUserId: Number(owner),
      workspaceId,
      redirectUris: options['redirect-uri'],
      grants: options.grant as NewOAuthClient['grants'],
      scopes: options.scope,
      confidential: !options.public,
    });
    print(`Registered OAuth client "${name}" (${options.public ? 'public' : 'confidential'})`);
    print(`  client id:     ${registered.clientId}`);
    if (registered.clientSecret) print(`  client secret: ${registered.clientSecret}  (shown once; only a digest is stored)`);
  },
};
