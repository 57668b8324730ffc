import { config } from '#core/platform/config';
import { webhookConfig } from '#core/platform/webhook-settings';
import { type LocalConfig, parseLocalConfig } from '#lib/local/local-config';
import type { LocalRunner } from '#lib/local/runner';

/** `npm start`: the whole service on this machine. Variables: docs/operations.md, "Local runner". */

// On Node 20 the AWS SDK warns on every start that its 2027 releases need Node 22 (several
// lines in the middle of ours); one short line of our own says the same (docs/operations.md, Local runner).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** Every part of the configuration (the service's, the webhooks', the runner's), each bad variable named in one message, before anything starts. */
function settings(): LocalConfig {
  const problems: string[] = [];
  const attempt = <T>(parse: () => T) => {
    try {
      return parse();
    } catch (error) {
      problems.push((error as Error).message.replace(/^Invalid configuration: /, ''));
      return undefined;
    }
  };
  attempt(config);
  attempt(webhookConfig);
  const cfg = attempt(() => parseLocalConfig(process.env));
  if (problems.length) throw new Error(`invalid configuration: ${problems.join('; ')}`);
  return cfg!;
}

/** One line per step of the start, before it begins: on a busy machine a start takes tens of seconds. */
const progress = (step: string) => console.log(`  ${step}`);

function printStarted(cfg: LocalConfig, runner: LocalRunner, ms: number) {
  console.log(`\nTenant API listening on ${runner.baseUrl} (ready in ${ms} ms)`);
  console.log(`  health:   ${runner.origin}/health`);
  // DOCUMENTATION_ENABLED=0 turns the pages off (404), as documentation.enabled does in AWS.
  if (config().DOCUMENTATION_ENABLED) console.log(`  docs:     ${runner.origin}/api/docs (sign in with the admin's email and password)`);
  console.log(`  storage:  ${cfg.DYNAMODB_ENDPOINT ?? `DynamoDB Local at ${runner.dynamoDbEndpoint}, data in ${cfg.DATA_DIR}`}`);
  const temporary = !cfg.MAIL_DIR && cfg.DATA_DIR === 'memory' ? ' (temporary, removed at stop)' : '';
  console.log(`  mail:     ${runner.mailDir}${temporary}, links to ${cfg.PUBLIC_BASE_URL ?? runner.origin}; a line below for each message`);
  console.log(`  admin:    DYNAMODB_ENDPOINT=${runner.dynamoDbEndpoint} TABLE_NAME=${runner.tableName} npm run admin -- <command>`);
  if (!cfg.DYNAMODB_ENDPOINT && cfg.DYNAMODB_PORT === undefined) {
    console.log('            (DynamoDB Local has a new port each run; set DYNAMODB_PORT to keep this command valid)');
  }
  if (webhookConfig().WEBHOOK_ALLOW_INSECURE) {
    console.log('  webhooks: WEBHOOK_ALLOW_INSECURE=1: http:// and loopback or private targets are accepted (local use only)');
  }
  if (Number(process.versions.node.split('.')[0]) < 22) {
    console.log(`  note:     Node ${process.versions.node} works; Node 22 (what Lambda runs) is recommended`);
  }
  if (runner.bootstrap) {
    const b = runner.bootstrap;
    console.log('\nBootstrapped an empty store. These are shown once:');
    console.log(`  API key:   ${b.apiKey}`);
    console.log(`  email:     ${b.email}`);
    console.log(`  password:  ${b.password}`);
    console.log(`  workspace: ${b.workspaceId} (tier enterprise)`);
    console.log(`\nTry:  curl -H "Authorization: Bearer ${b.apiKey}" ${runner.baseUrl}/workspaces`);
  } else {
    console.log('  The store already has users: use the key printed when it was first bootstrapped.');
  }
  if (cfg.LOG_REQUESTS) console.log('\nRequests (LOG_REQUESTS=0 silences them):');
}

/**
 * Stops on SIGINT, SIGTERM and SIGHUP, and when npm is gone: a SIGKILL of npm would otherwise
 * leave us serving (DynamoDB Local goes with us either way, lib/local/child-watchdog.ts).
 */
function stopOnExit(runner: LocalRunner) {
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${why}: stopping`);
    await runner.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && void stop('npm exited'), 1000).unref();
  }
}

async function main() {
  const started = Date.now();
  const cfg = settings();
  console.log('Starting the Tenant API:');
  progress('loading its code (every function, as the Lambdas would)…');
  // Loaded here, not at the top, so that the lines above show while the code loads.
  const { startLocalRunner } = await import('#lib/local/runner');
  const runner = await startLocalRunner(cfg, {}, (line) => console.log(line), progress);
  printStarted(cfg, runner, Date.now() - started);
  stopOnExit(runner);
}

main().catch((error: Error) => {
  console.error(`Could not start: ${error.message}`);
  process.exit(1);
});
