import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ConfigVariable } from '#core/platform/config';
import type { SecretArnVariable } from '#core/platform/secret-settings';
import type { WebhookVariable } from '#core/platform/webhook-settings';

/**
 * Settings for a function, by the variable its configuration reads
 * (functions/core/platform/config.ts, webhook-settings.ts, secret-settings.ts): a name no schema reads fails
 * the compiler here, not a deployed function at start.
 */
export type FunctionEnvironment = Partial<Record<ConfigVariable | WebhookVariable | SecretArnVariable, string>>;

/** The settings as Lambda's environment takes them: the ones given. */
export const environmentOf = (environment: FunctionEnvironment): Record<string, string> =>
  Object.fromEntries(Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined));

/** Adds the settings to the function's environment. */
export function addEnvironment(
  fn: IFunction & { addEnvironment(name: string, value: string): unknown },
  environment: FunctionEnvironment,
): void {
  for (const [name, value] of Object.entries(environmentOf(environment))) fn.addEnvironment(name, value);
}
