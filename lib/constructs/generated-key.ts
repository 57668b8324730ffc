import { Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

export interface GeneratedKeyProps {
  /** What the key does, as Secrets Manager shows it. */
  description: string;
  /** Why replacing it by hand is its rotation, and what that costs (cdk-nag's AwsSolutions-SMG4). */
  rotation: string;
}

/**
 * A key every function that uses it must share (CURSOR_SIGNING_KEY, PIXEL_HASH_KEY), or one
 * Lambda container would not recognise another's work. Generated once by Secrets Manager
 * and resolved by CloudFormation into the functions' configuration at deployment, so no
 * function reads Secrets Manager on a cold start.
 */
export class GeneratedKey extends Construct {
  /** A CloudFormation dynamic reference to the key, for a function's environment. */
  readonly value: string;

  constructor(scope: Construct, id: string, props: GeneratedKeyProps) {
    super(scope, id);
    const secret = new Secret(this, 'Secret', {
      description: props.description,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    this.value = secret.secretValue.unsafeUnwrap();
    Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: props.rotation });
  }
}
