/**
 * S3 → EventBridge → SQS, as AWS delivers it. When an object is put in a bucket whose notification
 * configuration enables EventBridge, S3 sends an "Object Created" event to the account's default event bus;
 * every enabled rule whose event pattern matches sends it to its targets, and an SQS target receives the
 * event's JSON as the message body — only if the queue's resource policy lets events.amazonaws.com
 * `sqs:SendMessage` for that rule (aws:SourceArn); otherwise EventBridge drops it (the twin logs why).
 * The twin sends into its SQS (fauxqs) with its own operator access, as EventBridge is not a function.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { PlanBucket, PlanQueue, PlanRule, TwinPlan } from '../assembly/plan';
import { matchesEventPattern } from './event-pattern';
import { eventBridgeSendDecision } from '../iam/decisions';
import type { AwsHttpRequest, RequiredPermission } from '../iam/requests';

/** An object a request created, with what S3 puts in the event about it. */
export interface ObjectCreated {
  bucket: string;
  key: string;
  size: number;
  /** without the quotes the ETag header has */
  etag: string;
  versionId?: string;
  /** S3's request id (x-amz-request-id) */
  requestId: string;
  /** the account of the principal that put it (its own, for a role session or the operator) */
  requester: string;
  sourceIp: string;
}

/**
 * The object a request created, when it is a PutObject that S3 answered with 200: not a copy (which needs
 * GetObject of its source too), an upload part or a multipart completion (those name an uploadId).
 */
export const objectCreatedBy = (
  request: AwsHttpRequest,
  needed: RequiredPermission[] | 'unauthenticated',
  answer: { status: number; headers: Record<string, string> },
  sourceIp: string,
): ObjectCreated | undefined => {
  if (request.service !== 's3' || request.method.toUpperCase() !== 'PUT' || answer.status !== 200) return undefined;
  if (needed === 'unauthenticated' || needed.length !== 1 || needed[0]!.action !== 's3:PutObject') return undefined;
  if (/[?&](?:uploadId|partNumber)=/.test(request.path)) return undefined;
  const object = /^arn:aws:s3:::([^/]+)\/(.+)$/.exec(needed[0]!.resource);
  if (!object) return undefined;
  // an aws-chunked body (the SDK's streaming upload) carries its decoded length in a header
  const size = Number(request.headers['x-amz-decoded-content-length'] ?? request.body.length);
  return {
    bucket: object[1]!,
    key: object[2]!,
    size,
    etag: (answer.headers.etag ?? '').replaceAll('"', ''),
    ...(answer.headers['x-amz-version-id'] && { versionId: answer.headers['x-amz-version-id'] }),
    requestId: answer.headers['x-amz-request-id'] ?? randomBytes(8).toString('hex').toUpperCase(),
    requester: request.account,
    sourceIp,
  };
};

/** The event S3 sends to EventBridge for a created object (the shape EventBridge hands its targets). */
export interface ObjectCreatedEvent {
  version: '0';
  id: string;
  'detail-type': 'Object Created';
  source: 'aws.s3';
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: {
    version: '0';
    bucket: { name: string };
    object: { key: string; size: number; etag: string; 'version-id'?: string; sequencer: string };
    'request-id': string;
    requester: string;
    'source-ip-address': string;
    reason: 'PutObject';
  };
}

export const objectCreatedEvent = (
  created: ObjectCreated,
  at: { account: string; region: string; id: string; time: Date; sequencer: string },
): ObjectCreatedEvent => ({
  version: '0',
  id: at.id,
  'detail-type': 'Object Created',
  source: 'aws.s3',
  account: at.account,
  time: at.time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: at.region,
  resources: [`arn:aws:s3:::${created.bucket}`],
  detail: {
    version: '0',
    bucket: { name: created.bucket },
    object: {
      key: created.key,
      size: created.size,
      etag: created.etag,
      ...(created.versionId !== undefined && { 'version-id': created.versionId }),
      sequencer: at.sequencer,
    },
    'request-id': created.requestId,
    requester: created.requester,
    'source-ip-address': created.sourceIp,
    reason: 'PutObject',
  },
});

export interface Delivery {
  rule: PlanRule;
  queue: PlanQueue;
  /** undefined when the queue's policy lets EventBridge send for this rule; else why it does not */
  refused?: string;
}

/** Every SQS target of every rule that matches the event, and whether its queue's resource policy lets EventBridge send. */
export const deliveriesOf = (event: ObjectCreatedEvent, plan: Pick<TwinPlan, 'rules' | 'queues'>): Delivery[] =>
  plan.rules
    .filter((rule) => matchesEventPattern(rule.pattern, event))
    .flatMap((rule) =>
      rule.targets.map(({ queueArn }): Delivery => {
        const queue = plan.queues.find((q) => q.arn === queueArn)!;
        const decision = eventBridgeSendDecision(rule, queue, event.account);
        return { rule, queue, ...(!decision.allowed && { refused: decision.reason }) };
      }),
    );

export interface ObjectEventsOptions {
  plan: Pick<TwinPlan, 'account' | 'region' | 'rules' | 'queues'> & { buckets: Pick<PlanBucket, 'name' | 'eventBridge'>[] };
  /** sends a message body to a queue (the twin's operator access to its SQS) */
  send: (queueUrl: string, body: string) => Promise<void>;
  log: (line: string) => void;
  now?: () => Date;
}

/**
 * What S3 and EventBridge do after an object is created: the event, if the bucket sends its events to
 * EventBridge, delivered to each matching rule's queue that allows it. A failed send is logged, never an
 * error of the request that put the object (S3 has answered it).
 */
export const objectEvents = (options: ObjectEventsOptions) => {
  const { plan, send, log, now = () => new Date() } = options;
  let sequence = 0n;
  return async (created: ObjectCreated): Promise<void> => {
    if (!plan.buckets.find((b) => b.name === created.bucket)?.eventBridge) return;
    const time = now();
    // S3's sequencer orders the events of one key: hexadecimal, growing with each event
    const sequencer = (BigInt(time.getTime()) * 1000n + (sequence++ % 1000n)).toString(16).toUpperCase().padStart(16, '0');
    const event = objectCreatedEvent(created, { account: plan.account, region: plan.region, id: randomUUID(), time, sequencer });
    for (const { rule, queue, refused } of deliveriesOf(event, plan)) {
      if (refused) {
        log(
          `[eventbridge] ${rule.name}: dropped the event of s3://${created.bucket}/${created.key}: ${queue.name}'s policy does not let events.amazonaws.com sqs:SendMessage for this rule (${refused})`,
        );
        continue;
      }
      await send(queue.url, JSON.stringify(event)).catch((error: unknown) =>
        log(
          `[eventbridge] ${rule.name}: could not send the event of s3://${created.bucket}/${created.key} to ${queue.name}: ${String(error)}`,
        ),
      );
    }
  };
};
