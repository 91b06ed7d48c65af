/**
 * The manifest's queues (each with a DLQ) and the queue-triggered functions that consume them. A queue that
 * hears of files arriving (`objectsCreated`) gets an EventBridge rule sending it the files bucket's Object
 * Created events under its key prefix (the bucket sends its events to EventBridge: data-stack.ts).
 */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { queues as queueSpecs, visibilityTimeoutSeconds, type FunctionSpec, type QueueName, type QueueTrigger } from '#manifest';
import type { StageConfig } from '../stage-config';
import { deadLetterQueueName, queueName } from './names';
import { serviceResourcesIn, type PublishedData, type PublishedIdentity } from './published-resources';
import { ServiceFunction } from './service-function';

const queueTriggers = (fn: FunctionSpec): QueueTrigger[] => fn.triggers.filter((t): t is QueueTrigger => t.kind === 'queue');
export const isWorker = (fn: FunctionSpec): boolean => queueTriggers(fn).length > 0;

export interface WorkersStackProps extends StackProps {
  config: StageConfig;
  data: PublishedData;
  identity: PublishedIdentity;
  specs: FunctionSpec[];
}

export class WorkersStack extends Stack {
  readonly queues: Record<QueueName, sqs.Queue>;
  readonly functions: ServiceFunction[];

  constructor(scope: Construct, id: string, { config, data, identity, specs, ...props }: WorkersStackProps) {
    super(scope, id, props);
    const resources = serviceResourcesIn(this, { data, identity, config });
    const secure = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } satisfies sqs.QueueProps;

    this.queues = Object.fromEntries(
      Object.entries(queueSpecs).map(([name, spec]) => {
        const deadLetters = new sqs.Queue(this, `${name}-dlq`, {
          ...secure,
          queueName: deadLetterQueueName(config.prefix, name as QueueName),
          retentionPeriod: Duration.days(14),
        });
        const queue = new sqs.Queue(this, `${name}-queue`, {
          ...secure,
          queueName: queueName(config.prefix, name as QueueName),
          visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(name as QueueName)),
          retentionPeriod: Duration.days(4),
          deadLetterQueue: { queue: deadLetters, maxReceiveCount: spec.maxReceiveCount },
        });
        return [name, queue];
      }),
    ) as Record<QueueName, sqs.Queue>;

    for (const [name, spec] of Object.entries(queueSpecs)) {
      if (!spec.objectsCreated) continue;
      // the SqsQueue target adds the queue policy letting events.amazonaws.com send, for this rule (aws:SourceArn) only
      new events.Rule(this, `${name}-objects-created`, {
        description: `Files arriving under ${spec.objectsCreated.prefix} in the files bucket, to the ${name} queue`,
        eventPattern: {
          source: ['aws.s3'],
          detailType: ['Object Created'],
          detail: {
            bucket: { name: [resources.filesBucket.bucketName] },
            object: { key: events.Match.prefix(spec.objectsCreated.prefix) },
          },
        },
        targets: [new targets.SqsQueue(this.queues[name as QueueName])],
      });
    }

    this.functions = specs.map((spec) => {
      const fn = new ServiceFunction(this, { spec, resources, config });
      for (const t of queueTriggers(spec)) {
        fn.addEventSource(
          new SqsEventSource(this.queues[t.queue], {
            batchSize: t.batchSize,
            maxConcurrency: t.maxConcurrency,
            reportBatchItemFailures: true,
          }),
        );
      }
      return fn;
    });
  }
}
