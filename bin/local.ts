import { parseLocalConfig } from '#lib/local/local-config';
import { startLocalRunner } from '#lib/local/runner';

/** `npm start`: the whole service on this machine. Variables: see README, "Local runner". */
async function main() {
  const started = Date.now();
  const cfg = parseLocalConfig(process.env);
  const runner = await startLocalRunner(cfg);
  console.log(`Tenant API listening on ${runner.baseUrl} (ready in ${Date.now() - started} ms)`);
  console.log(`  health:   ${runner.origin}/health`);
  console.log(`  storage:  ${cfg.DYNAMODB_ENDPOINT ?? `DynamoDB Local at ${runner.dynamoDbEndpoint}, data in ${cfg.DATA_DIR}`}`);
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
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    await runner.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: Error) => {
  console.error(`Could not start: ${error.message}`);
  process.exit(1);
});
