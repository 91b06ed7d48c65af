/**
 * Lambda's SQS event source mappings, on this machine: for each mapping of the synthesized stacks, up to
 * its maximum concurrency of pollers long-poll the queue — signed as the worker's role, so its policy is
 * checked as AWS checks it — hand batches to the function in the twin's Lambda runtime, delete what
 * succeeded and leave reported failures (or a whole batch whose invocation failed or timed out) to
 * reappear after the visibility timeout — and, past maxReceiveCount, to move to the DLQ.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { PlanEventSource } from '../assembly/plan';
import type { InvokeOutcome } from './lambda';

const toSqsRecord = (message: Message, queueArn: string, region: string): SQSRecord => {
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
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([k, v]) => [
        k,
        {
          dataType: v.DataType ?? 'String',
          stringValue: v.StringValue,
          binaryValue: v.BinaryValue ? Buffer.from(v.BinaryValue).toString('base64') : undefined,
          stringListValues: [],
          binaryListValues: [],
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
};

/** Which messages of a batch failed, by Lambda's partial-batch rules. */
export const failedMessageIds = (
  batch: SQSRecord[],
  outcome: { response?: unknown; error?: unknown },
  reportBatchItemFailures = true,
): Set<string> => {
  const all = new Set(batch.map((r) => r.messageId));
  if (outcome.error !== undefined) return all;
  if (!reportBatchItemFailures) return new Set();
  const failures = (outcome.response as SQSBatchResponse | undefined)?.batchItemFailures;
  if (!failures) return new Set();
  const ids = failures.map((f) => f.itemIdentifier);
  // an empty or unknown identifier fails the whole batch, as in Lambda
  return ids.every((id) => id && all.has(id)) ? new Set(ids) : all;
};

export interface Poller {
  stop: () => Promise<void>;
}

export const startPoller = (options: {
  /** an SQS client signed with the function's role credentials */
  sqs: SQSClient;
  mapping: PlanEventSource;
  queueUrl: string;
  region: string;
  invoke: (event: SQSEvent) => Promise<InvokeOutcome>;
  log: (line: string) => void;
}): Poller => {
  const { sqs, mapping, queueUrl, region, invoke, log } = options;
  const abort = new AbortController();
  let running = true;

  const loop = async (): Promise<void> => {
    while (running) {
      let messages: Message[];
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: mapping.batchSize,
            WaitTimeSeconds: 20,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        );
        messages = out.Messages ?? [];
      } catch (error) {
        if (!running) return;
        log(`${mapping.functionId}: receive failed: ${(error as Error).name}: ${(error as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (messages.length === 0) continue;
      const batch = messages.map((m) => toSqsRecord(m, mapping.queueArn, region));
      const outcome = await invoke({ Records: batch });
      if (!outcome.ok) log(`${mapping.functionId}: invocation failed: ${outcome.error.errorType}: ${outcome.error.errorMessage}`);
      const failed = failedMessageIds(
        batch,
        outcome.ok ? { response: outcome.value } : { error: outcome.error },
        mapping.reportBatchItemFailures,
      );
      const done = batch.filter((r) => !failed.has(r.messageId));
      if (done.length > 0 && running) {
        await sqs
          .send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
            }),
          )
          .catch((error: unknown) => log(`${mapping.functionId}: delete failed: ${(error as Error).message}`));
      }
      if (failed.size > 0)
        log(`${mapping.functionId}: ${failed.size} of ${batch.length} message(s) failed; they return after the visibility timeout`);
    }
  };

  const loops = Array.from({ length: mapping.maxConcurrency ?? 5 }, loop);
  return {
    stop: async () => {
      running = false;
      abort.abort();
      await Promise.allSettled(loops);
    },
  };
};
