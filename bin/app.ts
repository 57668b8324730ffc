import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Annotations, App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiStack } from '#lib/api-stack';
import { DeployConfigError, type DeployContext, deployConfigOf, unknownContextKeys } from '#lib/deploy-config';

// Read here as well as by the CLI, so that a test synthesizes what `cdk synth` does,
// feature flags included. Context from the CLI still takes precedence.
const cdkJsonContext = (): Record<string, unknown> => JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context;

/**
 * The CDK app with its one stack, checked by cdk-nag's AWS Solutions rules on synthesis.
 * `options` may turn off CloudFormation's own validation, which the tests run once per option set.
 */
export function createApp(
  context: Partial<DeployContext> & Record<string, unknown> = {},
  options: Pick<AppProps, 'builtinCloudFormationValidation'> = {},
) {
  const app = new App({ ...options, context: { ...cdkJsonContext(), ...context } });
  const { stackName, ...settings } = deployConfigOf((key) => app.node.tryGetContext(key));
  for (const key of unknownContextKeys(app.node.getAllContext())) {
    Annotations.of(app).addWarningV2(
      'tenant-api:unknown-context-key',
      `Unknown context key ${key}: no setting reads it (docs/operations.md, Deploying).`,
    );
  }
  // No env: the stack is account- and region-agnostic, so synthesis needs no credentials.
  const stack = new ApiStack(app, stackName, settings);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    createApp().app.synth();
  } catch (error) {
    if (!(error instanceof DeployConfigError)) throw error;
    // The operator's mistake, not the program's: the message says what to change.
    console.error(error.message);
    process.exit(1);
  }
}
