import { Aws, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { Construct, type IConstruct } from 'constructs';

export interface EncryptionKeyProps {
  /** CDK context `kmsKey`: false, AWS's own keys; true, a key the stack makes; or an existing key's ARN. */
  setting: boolean | string;
}

/**
 * The optional customer-managed key of the data at rest; one the stack makes is retained like
 * the table, since a backup or a retained secret is unreadable without it.
 */
export class EncryptionKey extends Construct {
  readonly key?: IKey;

  constructor(scope: Construct, id: string, props: EncryptionKeyProps) {
    super(scope, id);
    if (typeof props.setting === 'string') this.key = Key.fromKeyArn(this, 'Existing', props.setting);
    else if (props.setting) this.key = this.madeKey();
  }

  /** cdk-nag's findings on what the table's grants give the functions beneath `scope` on the key, with why they hold. */
  acknowledgeTableGrants(scope: IConstruct): void {
    if (!this.key) return;
    const reason =
      "DynamoDB's documented use of a customer-managed key by a table's callers: the wildcards name kms:GenerateDataKey and GenerateDataKeyWithoutPlaintext, kms:ReEncryptFrom and ReEncryptTo, on this one key alone.";
    Validations.of(scope).acknowledge(
      { id: 'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]', reason },
      { id: 'AwsSolutions-IAM5[Action::kms:ReEncrypt*]', reason },
    );
  }

  private madeKey(): Key {
    const key = new Key(this, 'Key', {
      description: "Encrypts the tenant API's table, secrets, queues and logs",
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // CloudWatch Logs uses the key itself, not as a role; only for this account's and region's log groups.
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal(`logs.${Aws.REGION}.amazonaws.com`)],
        actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'],
        conditions: {
          ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:*` },
        },
      }),
    );
    return key;
  }
}
