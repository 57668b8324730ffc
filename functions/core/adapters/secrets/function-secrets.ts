import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type SecretName, secretArnSettingsOf, secretVariables } from '#core/platform/secret-settings';
import { type FunctionDefinition, secretsOf } from '../function-definition.ts';
import { secretValuesOf } from './secrets-manager-values.ts';

/**
 * Puts the values of the function's secrets into its environment, under the variables its
 * configuration reads, from the secrets whose ARNs the stack gave it: as if the stack had
 * set the values, which it no longer does (core/platform/secret-settings.ts says why).
 */
export async function loadSecrets(
  definition: FunctionDefinition,
  env: NodeJS.ProcessEnv = process.env,
  client: () => SecretsManagerClient = () => new SecretsManagerClient({}),
): Promise<void> {
  const names = secretsOf(definition);
  if (!names.length) return;
  const arns = secretArnSettingsOf(env);
  const arnsOf = (name: SecretName) => {
    const listed = arns[secretVariables[name].arns];
    if (!listed) throw new Error(`${secretVariables[name].arns} is not set: the stack gives it to the functions that declare ${name}.`);
    return listed;
  };
  const sources = names.map((name) => [secretVariables[name].value, arnsOf(name)] as const);
  const secretsManager = client();
  const values = await Promise.all(sources.map(([, listed]) => secretValuesOf(secretsManager, listed)));
  sources.forEach(([variable], i) => {
    env[variable] = values[i]!.join(',');
  });
}

/**
 * The handler, once the function's secrets are in its configuration. They are read once per
 * process, starting at init (the first config() read comes after, so config() stays
 * synchronous); a failed read fails the event, and the next event tries again. A replaced
 * secret value reaches a process only when Lambda starts a new one (docs/operations.md, Secrets).
 */
export function withSecrets<A extends unknown[], R>(
  definition: FunctionDefinition,
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  let loading: Promise<void> | undefined;
  const loaded = () =>
    (loading ??= loadSecrets(definition).catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  // Started at init, where Lambda gives the whole CPU; its failure is the first event's.
  loaded().catch(() => {});
  return async (...args) => {
    await loaded();
    return handler(...args);
  };
}
