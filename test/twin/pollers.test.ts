/**
 * The twin's SQS event source over real fauxqs: successes are deleted, reported failures come back
 * after the visibility timeout, and a message that keeps failing lands in the DLQ.
 */
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { functionById, type QueueTrigger } from '../../lib/manifest';
import { startLocalAws, type LocalAws } from '../../lib/twin/local-aws';
import { failedMessageIds, startPoller, type Poller } from '../../lib/twin/pollers';

let aws: LocalAws;
let sqs: SQSClient;

beforeAll(async () => {
  aws = await startLocalAws({ visibilityTimeoutSeconds: 1 });
  sqs = new SQSClient({ region: 'us-east-1', endpoint: aws.endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
});
afterAll(async () => {
  sqs.destroy();
  await aws.stop();
});

const worker = functionById('generation-worker');
const trigger = worker.triggers[0] as QueueTrigger;

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
      sqs, fn: worker, trigger: { ...trigger, maxConcurrency: 1 }, queue: aws.queues.generation, log: () => undefined,
      handler: async (event) => {
        const records = (event as SQSEvent).Records;
        seen.push(...records.map((r) => ({ body: r.body, receiveCount: r.attributes.ApproximateReceiveCount })));
        return { batchItemFailures: records.filter((r) => r.body === 'poison').map((r) => ({ itemIdentifier: r.messageId })) } satisfies SQSBatchResponse;
      },
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: aws.queues.generation.url, MessageBody: 'good' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: aws.queues.generation.url, MessageBody: 'poison' }));
    await until(() => seen.filter((s) => s.body === 'poison').length >= 3);
    await new Promise((r) => setTimeout(r, 1500));
  } finally {
    await poller?.stop();
  }
  expect(seen.filter((s) => s.body === 'good')).toHaveLength(1);
  expect(seen.filter((s) => s.body === 'poison').map((s) => s.receiveCount)).toEqual(['1', '2', '3']);
  const dlq = await sqs.send(new ReceiveMessageCommand({ QueueUrl: aws.queues.generation.dlqUrl, MaxNumberOfMessages: 10 }));
  expect(dlq.Messages?.map((m) => m.Body)).toEqual(['poison']);
  const main = await sqs.send(new ReceiveMessageCommand({ QueueUrl: aws.queues.generation.url, MaxNumberOfMessages: 10 }));
  expect(main.Messages ?? []).toHaveLength(0);
});
