import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface PruningScheduleProps {
  /** The function that deletes what has finished (functions/pruner). */
  pruner: IFunction;
  /** How often it runs; DynamoDB's own TTL stays as a backstop in between. */
  every?: Duration;
}

/** Runs the pruning job on a fixed rate with an EventBridge rule. */
export class PruningSchedule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: PruningScheduleProps) {
    super(scope, id);
    const every = props.every ?? Duration.hours(1);
    this.rule = new Rule(this, 'Rule', {
      description: 'Deletes expired API keys, user tokens, sessions and throttle windows',
      schedule: Schedule.rate(every),
      // Every run takes up where the last one stopped: an event older than one period is
      // superseded by the next, so retrying it longer would only overlap that run.
      targets: [new LambdaFunction(props.pruner, { retryAttempts: 2, maxEventAge: every })],
    });
  }
}
