import { Validations } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { type SecretArnVariable, type SecretName, secretVariables } from '#core/platform/secret-settings';
import { addEnvironment } from './function-environment.ts';

export interface GeneratedKeyProps {
  /** Which key, as functions' definitions declare it (`secrets`). */
  name: Exclude<SecretName, 'webhookSecretKeys'>;
  /** What the key does, as Secrets Manager shows it. */
  description: string;
  /** Why replacing it by hand is its rotation, and what that costs (cdk-nag's AwsSolutions-SMG4). */
  rotation: string;
  /** The customer-managed key (constructs/encryption-key.ts); unset, Secrets Manager's own. */
  encryptionKey?: IKey;
}

/**
 * A key every function that uses it must share (CURSOR_SIGNING_KEY, PIXEL_HASH_KEY), or one
 * Lambda container would not recognise another's work. Generated once by Secrets Manager;
 * the functions that declare it get its ARN and read it at init (core/adapters/secrets/),
 * so its value is in no function's configuration.
 */
export class GeneratedKey extends Construct {
  readonly secret: Secret;
  private readonly arnVariable: SecretArnVariable;

  constructor(scope: Construct, id: string, props: GeneratedKeyProps) {
    super(scope, id);
    this.arnVariable = secretVariables[props.name].arns;
    this.secret = new Secret(this, 'Secret', {
      description: props.description,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      encryptionKey: props.encryptionKey,
    });
    Validations.of(this.secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: props.rotation });
  }

  /** Gives the function the key's ARN and read access to it. */
  provideTo(fn: LambdaFunction): void {
    provideSecrets(fn, this.arnVariable, [this.secret]);
  }
}

/** Tells the function the secrets' ARNs, comma-separated in order, and lets it read those secrets alone. */
export function provideSecrets(fn: LambdaFunction, arnVariable: SecretArnVariable, secrets: readonly ISecret[]): void {
  for (const secret of secrets) secret.grantRead(fn);
  addEnvironment(fn, { [arnVariable]: secrets.map((secret) => secret.secretArn).join(',') });
}
