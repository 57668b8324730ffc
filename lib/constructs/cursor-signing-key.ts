import { Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/**
 * The key that signs list cursors (CURSOR_SIGNING_KEY): every function must share it, or
 * a cursor from one Lambda container would be refused by the next. Generated once by
 * Secrets Manager and resolved by CloudFormation into the functions' configuration at
 * deployment, so no function reads Secrets Manager on a cold start.
 */
export class CursorSigningKey extends Construct {
  /** A CloudFormation dynamic reference to the key, for a function's environment. */
  readonly value: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const secret = new Secret(this, 'Secret', {
      description: 'Signs list cursors (HMAC-SHA256); replacing it only invalidates cursors in flight',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    this.value = secret.secretValue.unsafeUnwrap();
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A cursor lives as long as a client pages through a list; replacing the key by hand (or redeploying a new secret) is the rotation, and costs only cursors in flight.',
    });
  }
}
