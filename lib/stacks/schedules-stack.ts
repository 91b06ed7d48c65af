/**
 * EventBridge Scheduler: one schedule per manifest schedule trigger, invoking the function directly
 * (the same function also answers its cron route), with retries and a dead-letter queue. The invocation is
 * asynchronous, so a run that fails inside the function is not the Scheduler's to see: each scheduled function's
 * asynchronous invocations send their failures to the same queue (a Lambda failure destination), where the
 * dead-letter alarm sees them (observability-stack.ts).
 */
import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { deployedFunctionName, scheduledEvent, type FunctionSpec, type ScheduleTrigger } from '#manifest';
import type { StageConfig } from '../stage-config';
import { functionArnOf, scheduleFailuresQueueName } from './names';
import { acknowledgeMatching } from './nag';

export const scheduleTriggers = (fn: FunctionSpec): ScheduleTrigger[] =>
  fn.triggers.filter((t): t is ScheduleTrigger => t.kind === 'schedule');

export interface SchedulesStackProps extends StackProps {
  config: StageConfig;
  /** every manifest function with a schedule trigger (built in an earlier stack, named by the manifest) */
  targets: FunctionSpec[];
}

export class SchedulesStack extends Stack {
  readonly deadLetters: sqs.Queue;

  constructor(scope: Construct, id: string, { config, targets, ...props }: SchedulesStackProps) {
    super(scope, id, props);
    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      // named: the scheduled functions' roles are granted sends to it by name (service-function.ts)
      queueName: scheduleFailuresQueueName(config.prefix),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is the schedules' dead-letter queue (Scheduler DeadLetterConfig); a DLQ of a DLQ adds nothing.",
    });

    acknowledgeMatching(
      this,
      /^AwsSolutions-IAM5\[Resource::.+:\*\]$/,
      "LambdaInvoke's grantInvoke also covers the target function's qualified ARNs (function:*); the scheduler role can invoke only the scheduled functions.",
    );

    for (const spec of targets) {
      const fn = lambda.Function.fromFunctionAttributes(this, `${spec.id}-function`, {
        functionArn: functionArnOf(this, config.prefix, spec.id),
        sameEnvironment: true,
      });
      // no asynchronous retries: a scheduled run is a sweep its next run repeats, and Lambda's retries (a minute, then
      // two, later) would overlap it; the failure goes to the queue at once, sent with the function's role, which
      // may send to it (service-function.ts). A CfnEventInvokeConfig rather than lambda.EventInvokeConfig, whose
      // grant would reach into the function's stack.
      new lambda.CfnEventInvokeConfig(this, `${spec.id}-async`, {
        functionName: deployedFunctionName(config.prefix, spec.id),
        qualifier: '$LATEST',
        maximumRetryAttempts: 0,
        destinationConfig: { onFailure: { destination: this.deadLetters.queueArn } },
      });
      scheduleTriggers(spec).forEach((trigger, i) => {
        new scheduler.Schedule(this, `${spec.id}-schedule${i ? `-${i}` : ''}`, {
          description: `${spec.id}: ${spec.description}`,
          schedule: scheduler.ScheduleExpression.expression(trigger.expression),
          target: new LambdaInvoke(fn, {
            input: scheduler.ScheduleTargetInput.fromObject(scheduledEvent(spec, trigger)),
            retryAttempts: 3,
            maxEventAge: Duration.hours(1),
            deadLetterQueue: this.deadLetters,
          }),
        });
      });
    }
  }
}
