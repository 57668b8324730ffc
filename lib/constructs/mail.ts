import { Annotations, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { CloudWatchDimensionSource, ConfigurationSet, EmailSendingEvent, EventDestination, SuppressionReasons } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { addressOf } from '#core/adapters/mailer/mime';
import { addEnvironment } from './function-environment.ts';

export interface MailProps {
  /** MAIL_FROM: `no-reply@example.com` or `Name <no-reply@example.com>`, of an identity verified in SES. */
  sender: string;
  /** PUBLIC_BASE_URL, the base of links in mail; unset, the functions use the API's own URL. */
  publicBaseUrl?: string;
  /** The functions that send mail: they alone get the grant and the settings. */
  senders: LambdaFunction[];
}

/**
 * The mail port's AWS side: only `senders` may send, as `sender`, through its own identity and
 * the stack's configuration set, which counts bounces and stops mailing addresses that bounced,
 * since anyone may type an address into registration (docs/operations.md, Mail).
 */
export class Mail extends Construct {
  readonly identityArns: string[];
  readonly configurationSet: ConfigurationSet;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    const address = addressOf(props.sender);
    const domain = address.split('@')[1]!;
    const stack = Stack.of(this);
    this.identityArns = [domain, address].map((identity) =>
      stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
    );
    if (/(^|\.)example\.(com|org|net)$/.test(domain)) {
      Annotations.of(this).addWarningV2(
        'tenant-api:mail-placeholder-sender',
        `mailFrom is the placeholder ${props.sender}: SES refuses it. Deploy with -c mailFrom="Name <address>" of an identity verified in SES.`,
      );
    }
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.configurationSet.addEventDestination('Metrics', {
      destination: EventDestination.cloudWatchDimensions([
        // SES tags every message with the set's name: the metrics of this stack's mail, apart from any other.
        { name: 'ses:configuration-set', source: CloudWatchDimensionSource.MESSAGE_TAG, defaultValue: 'none' },
      ]),
      events: [
        EmailSendingEvent.SEND,
        EmailSendingEvent.DELIVERY,
        EmailSendingEvent.BOUNCE,
        EmailSendingEvent.COMPLAINT,
        EmailSendingEvent.REJECT,
      ],
    });
    const configurationSetArn = stack.formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
    const grant = new PolicyStatement({
      actions: ['ses:SendEmail'],
      // SES authorizes a send against the configuration set it names as well as the identity.
      resources: [...this.identityArns, configurationSetArn],
      conditions: { StringEquals: { 'ses:FromAddress': address } },
    });
    for (const fn of props.senders) {
      fn.addToRolePolicy(grant);
      addEnvironment(fn, {
        MAIL_FROM: props.sender,
        MAIL_CONFIGURATION_SET: this.configurationSet.configurationSetName,
        PUBLIC_BASE_URL: props.publicBaseUrl,
      });
    }
  }
}
