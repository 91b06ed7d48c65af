/**
 * The twin's SQS event source over real fauxqs: successes are deleted, reported failures come back
 * after the visibility timeout, and a message that keeps failing lands in the DLQ.
 */
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startLocalAws, type LocalAws } from '../../lib/twin/aws/local-aws';
import { failedMessageIds, startPoller, type Poller } from '../../lib/twin/runtime/pollers';

const arn = (name: string) => `arn:aws:sqs:us-east-1:000000000000:${name}`;
const url = (name: string) => `https://sqs.us-east-1.amazonaws.com/000000000000/${name}`;
const queue = { name: 'work', arn: arn('work'), url: url('work') };
const dlq = { name: 'work-dlq', arn: arn('work-dlq'), url: url('work-dlq') };

let aws: LocalAws;
let sqs: SQSClient;

beforeAll(async () => {
  aws = await startLocalAws({
    region: 'us-east-1',
    buckets: [],
    queues: [
      { ...dlq, logicalId: 'Dlq', attributes: {}, policy: [] },
      {
        ...queue,
        logicalId: 'Queue',
        policy: [],
        attributes: { VisibilityTimeout: '1', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 3 }) },
      },
    ],
  });
  sqs = new SQSClient({ region: 'us-east-1', endpoint: aws.endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
});
afterAll(async () => {
  sqs.destroy();
  await aws.stop();
});

const until = async (check: () => boolean, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

test('partial batch failure semantics', () => {
  const batch = ['a', 'b', 'c'].map((messageId) => ({ messageId }) as never);
  expect([...failedMessageIds(batch, { response: { batchItemFailures: [{ itemIdentifier: 'b' }] } })]).toEqual(['b']);
  expect(failedMessageIds(batch, { response: undefined }).size).toBe(0);
  expect(failedMessageIds(batch, { error: new Error('crash') }).size).toBe(3);
  // an identifier Lambda cannot match fails the whole batch
  expect(failedMessageIds(batch, { response: { batchItemFailures: [{ itemIdentifier: '' }] } }).size).toBe(3);
});

test('a message reaches the worker, a failing one is retried and then dead-lettered', async () => {
  const seen: { body: string; receiveCount: string }[] = [];
  let poller: Poller | undefined;
  try {
    poller = startPoller({
      sqs,
      queueUrl: queue.url,
      region: 'us-east-1',
      log: () => undefined,
      mapping: { functionId: 'worker', queueArn: queue.arn, batchSize: 1, maxConcurrency: 1, reportBatchItemFailures: true },
      invoke: async (event: SQSEvent) => {
        const records = event.Records;
        seen.push(...records.map((r) => ({ body: r.body, receiveCount: r.attributes.ApproximateReceiveCount })));
        const value = {
          batchItemFailures: records.filter((r) => r.body === 'poison').map((r) => ({ itemIdentifier: r.messageId })),
        } satisfies SQSBatchResponse;
        return { ok: true, value, durationMs: 1, coldStart: false };
      },
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: 'good' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: 'poison' }));
    await until(() => seen.filter((s) => s.body === 'poison').length >= 3);
    await new Promise((r) => setTimeout(r, 1500));
  } finally {
    await poller?.stop();
  }
  expect(seen.filter((s) => s.body === 'good')).toHaveLength(1);
  expect(seen.filter((s) => s.body === 'poison').map((s) => s.receiveCount)).toEqual(['1', '2', '3']);
  const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.url, MaxNumberOfMessages: 10 }));
  expect(dead.Messages?.map((m) => m.Body)).toEqual(['poison']);
  const main = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10 }));
  expect(main.Messages ?? []).toHaveLength(0);
});
