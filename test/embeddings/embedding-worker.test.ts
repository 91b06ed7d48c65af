/**
 * The embedding worker's SQS loop (embeddings/worker.ts) with a stubbed run and wake-up: a batch of wake-ups is one
 * run within the budget the invocation leaves; work left means one delayed wake-up of itself and the batch done
 * with; a run that fails, or a wake-up that cannot be sent while work is left, returns every message. And the
 * wake-up helper writers call, through a stubbed SQS client.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { WorkOutcome } from '#core/embeddings/embedding-work';
import { wakeEmbedding, wakeEmbeddingLater } from '#core/embeddings/wake';
import { embeddingWorker } from '#core/embeddings/worker';
import { setEnv } from '../support/config-env';

const record = (messageId: string, body: string): SQSRecord =>
  ({ messageId, body, receiptHandle: `rh-${messageId}`, attributes: { ApproximateReceiveCount: '1' } }) as unknown as SQSRecord;

const batch: SQSEvent = {
  Records: [
    record('m-1', JSON.stringify({ investigation_id: '5b0f6a0e-8d3c-4f7a-9b1e-2c4d6e8f0a11', correlation_id: 'req-1' })),
    record('m-2', 'not json at all'), // any body wakes it
  ],
};
const context = (remainingMs: number) =>
  ({ awsRequestId: 'fn-1', functionName: 'ias-embedding-worker', getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

const outcome = (over: Partial<WorkOutcome>): WorkOutcome => ({
  embedded: 0,
  chunks: 0,
  requests: 0,
  failed: 0,
  gave_up: 0,
  skipped: 0,
  removed: 0,
  reset: 0,
  stopped_by: 'done',
  waiting: 0,
  next_at: null,
  ...over,
});

test('one run per batch, within the budget the invocation leaves; nothing left: no wake-up, the batch done with', async () => {
  const budgets: number[] = [];
  const wakes: number[] = [];
  const handler = embeddingWorker(
    async (budget) => (budgets.push(budget), outcome({ chunks: 96, requests: 1 })),
    async (delay) => (wakes.push(delay), true),
  );
  expect(await handler(batch, context(300_000))).toEqual({ batchItemFailures: [] });
  expect(budgets).toEqual([240_000]);
  expect(wakes).toEqual([]);
});

test('the investigations a wake-up says are done writing reach the run (their partial requests do not wait)', async () => {
  const runs: string[][] = [];
  const handler = embeddingWorker(
    async (_budget, doneWriting) => (runs.push(doneWriting), outcome({})),
    async () => true,
  );
  const seeded = '0d6e2f4a-1b3c-4d5e-8f7a-9b0c1d2e3f40';
  const wakeUps: SQSEvent = {
    Records: [
      ...batch.Records,
      record('m-3', JSON.stringify({ investigation_id: seeded, done_writing: true })),
      record('m-4', JSON.stringify({ investigation_id: seeded, done_writing: true })),
      record('m-5', JSON.stringify({ investigation_id: 42, done_writing: true })),
    ],
  };
  await handler(wakeUps, context(300_000));
  await handler(batch, context(300_000));
  expect(runs).toEqual([[seeded], []]);
});

test('work left: one wake-up of itself for when it can go on, and the batch is done with', async () => {
  const wakes: number[] = [];
  const nextAt = new Date(Date.now() + 42_000);
  const handler = embeddingWorker(
    async () => outcome({ stopped_by: 'time_budget', waiting: 5_000, next_at: nextAt }),
    async (delay) => (wakes.push(delay), true),
  );
  expect(await handler(batch, context(300_000))).toEqual({ batchItemFailures: [] });
  expect(wakes).toHaveLength(1);
  expect(wakes[0]).toBeGreaterThanOrEqual(41);
  expect(wakes[0]).toBeLessThanOrEqual(42);
});

test('a run that fails, or a wake-up that cannot be sent while work is left, returns every message', async () => {
  const failing = embeddingWorker(
    async () => {
      throw new Error('database unavailable');
    },
    async () => true,
  );
  expect(await failing(batch, context(300_000))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-2' }] });
  const unsent = embeddingWorker(
    async () => outcome({ stopped_by: 'ai_unavailable', waiting: 10, next_at: new Date(Date.now() + 120_000) }),
    async () => false,
  );
  expect(await unsent(batch, context(300_000))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-2' }] });
});

describe('wake-ups', () => {
  const sent: SendMessageCommand['input'][] = [];
  beforeEach(() => {
    sent.length = 0;
    setEnv({ EMBEDDING_QUEUE_URL: 'http://127.0.0.1:1/0/ias-embedding' });
    jest.spyOn(SQSClient.prototype, 'send').mockImplementation((async (command: SendMessageCommand) => {
      sent.push(command.input);
      return {};
    }) as never);
  });

  test('wakeEmbedding sends the investigation to the embedding queue; the worker’s own wake-up carries its delay', async () => {
    expect(await wakeEmbedding('5b0f6a0e-8d3c-4f7a-9b1e-2c4d6e8f0a11')).toBe(true);
    expect(await wakeEmbeddingLater(1_200)).toBe(true);
    expect(await wakeEmbedding('5b0f6a0e-8d3c-4f7a-9b1e-2c4d6e8f0a11', { doneWriting: true })).toBe(true);
    expect(sent.map((m) => [m.QueueUrl, JSON.parse(m.MessageBody!) as unknown, m.DelaySeconds])).toEqual([
      ['http://127.0.0.1:1/0/ias-embedding', { investigation_id: '5b0f6a0e-8d3c-4f7a-9b1e-2c4d6e8f0a11' }, undefined],
      ['http://127.0.0.1:1/0/ias-embedding', {}, 900],
      ['http://127.0.0.1:1/0/ias-embedding', { investigation_id: '5b0f6a0e-8d3c-4f7a-9b1e-2c4d6e8f0a11', done_writing: true }, undefined],
    ]);
  });

  test('a wake-up that cannot be sent is false, never a thrown error: the write stands, the sweeper embeds it', async () => {
    jest.spyOn(SQSClient.prototype, 'send').mockImplementation((async () => {
      throw new Error('SQS unreachable');
    }) as never);
    expect(await wakeEmbedding('5b0f6a0e-8d3c-4f7a-9b1e-2c4d6e8f0a11')).toBe(false);
  });
});
