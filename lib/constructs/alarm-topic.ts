import { Aws, type IAspect, RemovalPolicy } from 'aws-cdk-lib';
import { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct, type IConstruct } from 'constructs';

export interface AlarmTopicProps {
  /** Subscribed by e-mail when given (context `alarmEmail`): AWS mails a confirmation link first. */
  email?: string;
}

/**
 * The topic every alarm notifies, under a key of the stack's own: CloudWatch cannot publish to
 * a topic under the AWS-managed SNS key, and the alarms would go nowhere, silently.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    const key = new Key(this, 'Key', {
      description: 'Encrypts the alarm topic; CloudWatch may use it to publish',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // CloudWatch of this account only (the confused deputy): another account's alarms may not use the key.
    key.grant(
      new ServicePrincipal('cloudwatch.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } } }),
      'kms:Decrypt',
      'kms:GenerateDataKey*',
    );
    this.topic = new Topic(this, 'Topic', { displayName: 'Tenant API alarms', masterKey: key, enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }
}

/**
 * Gives every CloudWatch alarm under the scope it is applied to the topic as its alarm and OK
 * action, so that an alarm added anywhere in the stack notifies, and its recovery too.
 */
export class NotifyOnEveryAlarm implements IAspect {
  private readonly action: SnsAction;

  constructor(topic: Topic) {
    this.action = new SnsAction(topic);
  }

  visit(node: IConstruct): void {
    if (!(node instanceof Alarm)) return;
    node.addAlarmAction(this.action);
    node.addOkAction(this.action);
  }
}
