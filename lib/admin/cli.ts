import { billing } from './billing.ts';
import { bootstrap } from './bootstrap.ts';
import { type Command, commonOptionsHelp, describeFailure, UsageError } from './command.ts';
import { createUser } from './create-user.ts';
import { reconcileGatewayKeysCommand } from './gateway-keys.ts';
import { maintenanceOff, maintenanceOn, maintenanceStatus } from './maintenance.ts';
import { createOAuthClient } from './oauth-client.ts';
import { grantPackageCommand, revokePackageCommand } from './package.ts';
import { prune } from './prune.ts';
import { type OpenedStore, openStore } from './store.ts';
import { resume, suspend } from './suspension.ts';
import { tier } from './tier.ts';

/**
 * `npm run admin -- <command> ...`: operations on the single table of a local runner or a
 * deployed stack. Each command lives in a file of its own here; this one finds it, runs it,
 * and turns any failure into one line on stderr and an exit status.
 */
const commands: readonly Command[] = [
  bootstrap,
  createUser,
  suspend,
  resume,
  tier,
  billing,
  grantPackageCommand,
  revokePackageCommand,
  prune,
  reconcileGatewayKeysCommand,
  createOAuthClient,
  maintenanceOn,
  maintenanceOff,
  maintenanceStatus,
];

const exitStatus = { done: 0, failed: 1, usage: 2 } as const;

const overview = () =>
  [
    'Usage: npm run admin -- <command> [options]     (or: npx tsx bin/admin.ts <command> ...)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(23)} ${c.summary}`),
    '',
    'Which table:',
    commonOptionsHelp,
    '  TABLE_NAME             the table (default tenant-api-local when DYNAMODB_ENDPOINT is set)',
    "  DYNAMODB_ENDPOINT      a DynamoDB-compatible endpoint, e.g. the local runner's DynamoDB Local",
    '  AWS_REGION             default us-east-1; AWS credentials as the AWS SDK finds them',
    'The table must exist (npm start or the stack creates it); the CLI never creates one.',
    '',
    'Exit status: 0 done (also bootstrap on a store that has users), 1 refused or failed, 2 bad arguments.',
    'Run "npm run admin -- <command> --help" for its options.',
  ].join('\n');

const commandHelp = (c: Command) =>
  [
    `Usage: npm run admin -- ${c.name} [options]`,
    '',
    `${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.`,
    '',
    'Options:',
    ...c.options,
    commonOptionsHelp,
    ...(c.notes ? ['', c.notes] : []),
  ].join('\n');

/** The command `argv` names, with the arguments after its name. */
function find(argv: string[]): { command: Command; args: string[] } | undefined {
  for (const command of commands) {
    const words = command.name.split(' ');
    if (words.every((word, i) => argv[i] === word)) return { command, args: argv.slice(words.length) };
  }
  return undefined;
}

/** Where the CLI reads its settings and writes its lines: the process's own, or a test's. */
export interface AdminIo {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
}

/** Runs one command line; answers the exit status. */
export async function adminCli(argv: string[], io: AdminIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    io.err(`admin: ${describeFailure(error)}`);
    return exitStatus.failed;
  }
}

async function run(argv: string[], { env, out, err }: AdminIo): Promise<number> {
  if (!argv.length) {
    err(overview());
    return exitStatus.usage;
  }
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    out(overview());
    return exitStatus.done;
  }
  const found = find(argv);
  if (!found && (argv.includes('--help') || argv.includes('-h'))) {
    out(overview());
    return exitStatus.done;
  }
  if (!found) {
    const group = commands.filter((c) => c.name.startsWith(`${argv[0]} `)).map((c) => `"${c.name}"`);
    const hint = group.length ? `; did you mean ${group.join(' or ')}?` : '; run "npm run admin -- --help" for the list';
    err(`admin: unknown command "${argv.slice(0, group.length ? 2 : 1).join(' ')}"${hint}`);
    return exitStatus.usage;
  }
  const { command, args } = found;
  if (args.includes('--help') || args.includes('-h')) {
    out(commandHelp(command));
    return exitStatus.done;
  }
  let store: OpenedStore | undefined;
  try {
    await command.run(args, {
      open: async (stack) => {
        store ??= await openStore(env, stack);
        err(`admin: ${store.target}`);
        return store.deps;
      },
      print: (line = '') => out(line),
    });
    return exitStatus.done;
  } catch (error) {
    const usage = error instanceof UsageError;
    const line = describeFailure(error).replace(/\s*\n\s*/g, ' ');
    err(`admin ${command.name}: ${line}${usage ? ` (see: npm run admin -- ${command.name} --help)` : ''}`);
    return usage ? exitStatus.usage : exitStatus.failed;
  } finally {
    store?.close();
  }
}
