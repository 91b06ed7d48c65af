/**
 * Lambda's SQS event source, on this machine: long-polls a queue, hands batches to the worker
 * handler, deletes what succeeded and leaves reported failures (or a whole batch whose handler threw)
 * to reappear after the visibility timeout — and, past maxReceiveCount, to move to the DLQ.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { FunctionSpec, QueueTrigger } from '../manifest';
import { lambdaContext, type LambdaHandler } from './gateway';
import type { LocalQueue } from './local-aws';

export const toSqsRecord = (message: Message, queueArn: string): SQSRecord => {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'twin',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(Object.entries(message.MessageAttributes ?? {}).map(([k, v]) => [k, {
      dataType: v.DataType ?? 'String', stringValue: v.StringValue, binaryValue: v.BinaryValue ? Buffer.from(v.BinaryValue).toString('base64') : undefined,
      stringListValues: [], binaryListValues: [],
    }])),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'us-east-1',
  };
};

/** Which messages of a batch failed, by Lambda's partial-batch rules. */
export const failedMessageIds = (batch: SQSRecord[], outcome: { response?: unknown; error?: unknown }): Set<string> => {
  const all = new Set(batch.map((r) => r.messageId));
  if (outcome.error !== undefined) return all;
  const failures = (outcome.response as SQSBatchResponse | undefined)?.batchItemFailures;
  if (!failures) return new Set();
  const ids = failures.map((f) => f.itemIdentifier);
  // an empty or unknown identifier fails the whole batch, as in Lambda
  return ids.every((id) => id && all.has(id)) ? new Set(ids) : all;
};

export interface Poller { stop: () => Promise<void> }

export const startPoller = (options: {
  sqs: SQSClient;
  fn: FunctionSpec;
  trigger: QueueTrigger;
  queue: LocalQueue;
  handler: LambdaHandler;
  log: (line: string) => void;
}): Poller => {
  const { sqs, fn, trigger, queue, handler, log } = options;
  const abort = new AbortController();
  let running = true;

  const loop = async (): Promise<void> => {
    while (running) {
      let messages: Message[];
      try {
        const out = await sqs.send(new ReceiveMessageCommand({
          QueueUrl: queue.url, MaxNumberOfMessages: trigger.batchSize, WaitTimeSeconds: 1,
          MessageSystemAttributeNames: ['All'], MessageAttributeNames: ['All'],
        }), { abortSignal: abort.signal });
        messages = out.Messages ?? [];
      } catch (error) {
        if (!running) return;
        log(`${fn.id}: receive failed: ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (messages.length === 0) continue;
      const batch = messages.map((m) => toSqsRecord(m, queue.arn));
      const event: SQSEvent = { Records: batch };
      let outcome: { response?: unknown; error?: unknown };
      try {
        outcome = { response: await handler(event, lambdaContext(fn, crypto.randomUUID())) };
      } catch (error) {
        outcome = { error };
        log(`${fn.id}: handler threw: ${(error as Error).stack ?? String(error)}`);
      }
      const failed = failedMessageIds(batch, outcome);
      const done = batch.filter((r) => !failed.has(r.messageId));
      if (done.length > 0) {
        await sqs.send(new DeleteMessageBatchCommand({
          QueueUrl: queue.url, Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
        }));
      }
      if (failed.size > 0) log(`${fn.id}: ${failed.size} of ${batch.length} message(s) failed; they return after the visibility timeout`);
    }
  };

  const loops = Array.from({ length: trigger.maxConcurrency }, loop);
  return {
    stop: async () => {
      running = false;
      abort.abort();
      await Promise.allSettled(loops);
    },
  };
};
