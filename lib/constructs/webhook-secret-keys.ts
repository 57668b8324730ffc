import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { secretVariables } from '#core/platform/secret-settings';
import { provideSecrets } from './generated-key.ts';

export interface WebhookSecretKeysProps {
  /** The keys by name, the one that seals first (CDK context `webhookSecretKeys`); naming a new one first rotates. */
  names: readonly string[];
  /** The customer-managed key (constructs/encryption-key.ts); unset, Secrets Manager's own. */
  encryptionKey?: IKey;
}

/**
 * The keys that seal webhook signing secrets, kept outside the table and readable only by the
 * functions of the webhookSecrets port; retained like the table, which holds no usable secret
 * without them.
 */
export class WebhookSecretKeys extends Construct {
  private readonly secrets: Secret[];

  constructor(scope: Construct, id: string, props: WebhookSecretKeysProps) {
    super(scope, id);
    this.secrets = props.names.map(
      (name) =>
        new Secret(this, name, {
          description: `Seals webhook signing secrets in the table (key ${name}); deleting it leaves the secrets it sealed unreadable`,
          generateSecretString: { passwordLength: 64, excludePunctuation: true },
          removalPolicy: RemovalPolicy.RETAIN,
          encryptionKey: props.encryptionKey,
        }),
    );
    for (const secret of this.secrets) {
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'A sealing key cannot be swapped under the records it sealed: it is rotated by naming a new key first in webhookSecretKeys (docs/webhooks.md, Webhook endpoints and secrets), which keeps the old one opening until it is dropped.',
      });
    }
  }

  /** Gives the function the keys' ARNs, the sealing one first, and read access to them. */
  provideTo(fn: LambdaFunction): void {
    provideSecrets(fn, secretVariables.webhookSecretKeys.arns, this.secrets);
  }
}
