import type { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface ScheduledJobProps {
  /** The function that runs the job (functions/pruner, functions/gateway-key-reconciler). */
  job: IFunction;
  /** What a run does, as the rule describes it. */
  description: string;
  /** How often it runs. */
  every: Duration;
}

/** Runs a job on a fixed rate with an EventBridge rule. */
export class ScheduledJob extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ScheduledJobProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Rule', {
      description: props.description,
      schedule: Schedule.rate(props.every),
      // Every run takes up where the last one stopped: an event older than one period is
      // superseded by the next, so retrying it longer would only overlap that run.
      targets: [new LambdaFunction(props.job, { retryAttempts: 2, maxEventAge: props.every })],
    });
  }
}
