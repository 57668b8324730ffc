import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { addEnvironment } from './function-environment.ts';

export interface WebhookSecretKeysProps {
  /** The keys by name, the one that seals first (CDK context `webhookSecretKeys`); naming a new one first rotates. */
  names: readonly string[];
}

/**
 * The keys that seal webhook endpoints' signing secrets in the table (WEBHOOK_SECRET_KEYS,
 * functions/core/webhooks/secret-box.ts), outside it: each generated once by Secrets
 * Manager and resolved by CloudFormation into the environment of the functions that seal
 * or open secrets, and of no other; no function reads Secrets Manager, so none may.
 * Retained like the table: a table restored without its keys would hold no usable secret.
 */
export class WebhookSecretKeys extends Construct {
  /** WEBHOOK_SECRET_KEYS: CloudFormation dynamic references to the keys, comma-separated. */
  private readonly value: string;

  constructor(scope: Construct, id: string, props: WebhookSecretKeysProps) {
    super(scope, id);
    const secrets = props.names.map(
      (name) =>
        new Secret(this, name, {
          description: `Seals webhook signing secrets in the table (key ${name}); deleting it leaves the secrets it sealed unreadable`,
          generateSecretString: { passwordLength: 64, excludePunctuation: true },
          removalPolicy: RemovalPolicy.RETAIN,
        }),
    );
    this.value = secrets.map((secret) => secret.secretValue.unsafeUnwrap()).join(',');
    for (const secret of secrets) {
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'A sealing key cannot be swapped under the records it sealed: it is rotated by naming a new key first in webhookSecretKeys (docs/webhooks.md, Webhook endpoints and secrets), which keeps the old one opening until it is dropped.',
      });
    }
  }

  /** Gives the function the keys, in its environment. */
  provideTo(fn: LambdaFunction): void {
    addEnvironment(fn, { WEBHOOK_SECRET_KEYS: this.value });
  }
}
