import { Annotations, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
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
 * The mail port's AWS side: SES v2 sends as `sender`, and only `senders` may call it, only
 * from that address, only through the sender's own SES identity (its domain, or the address
 * when only the address is verified). In the SES sandbox, SES also authorizes against each
 * recipient's identity; this grant does not cover those, so mail reaches only what the
 * sandbox allows until the account is moved to production (docs/operations.md, Mail).
 */
export class Mail extends Construct {
  readonly identityArns: string[];

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
    const grant = new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: this.identityArns,
      conditions: { StringEquals: { 'ses:FromAddress': address } },
    });
    for (const fn of props.senders) {
      fn.addToRolePolicy(grant);
      addEnvironment(fn, { MAIL_FROM: props.sender, PUBLIC_BASE_URL: props.publicBaseUrl });
    }
  }
}
