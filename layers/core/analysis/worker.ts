/**
 * The loop both analysis workers share (SQS, partial batch responses): each message names an analysis;
 * its work either finishes (success, or a failure recorded on the analysis) or throws, and then the
 * message is reported back and, in the end, rests in the DLQ. A malformed message is reported back too:
 * it ends in the DLQ where an operator can see it.
 *
 * The message's visibility follows the work, not the queue's long default (6 × the worker's timeout):
 * while the work holds the analysis's lease the message stays invisible one lease at a time (lease.ts),
 * so after a crash it returns within about a minute and takes the row over; a failed attempt returns
 * after a short, growing delay (retryDelaySeconds), or once a live lease could have run out.
 *
 * Work that has to wait — for its organization's share of the AI quota (QuotaExhaustedError), or for its
 * investigation's evidence to be processed (WaitingForEvidenceError) — is not a failure: the message is sent
 * again with a delay until the wait's retryAt, and the one received is done with, so waiting never spends the
 * receive count that sends poison messages to the DLQ.
 * (Redelivery as a whole: domain/generation-status.ts.)
 */
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import type { QueueName } from '#manifest';
import { QuotaExhaustedError } from '#core/ai/quota';
import { sqsClient } from '#core/aws/clients';
import { logger, withLambdaContext } from '#core/logger';
import { enqueue, MAX_DELAY_SECONDS } from '#core/queues';
import { WaitingForEvidenceError } from './evidence-wait';
import { failedAttemptDelaySeconds, leaseMs, LeaseHeldError, MAX_RETRY_DELAY_SECONDS } from './lease';
import { ifUsed } from '#core/if-used';

/** A bad correlation id never fails the work: it only labels its log lines. */
const Message = /* @__PURE__ */ ifUsed(() =>
  z.object({ analysis_id: z.uuid(), correlation_id: z.string().min(1).max(128).optional().catch(undefined) }),
);

/** The keys of one message's lines, removed after it: a batch's next message has its own. */
const MESSAGE_KEYS = ['correlation_id', 'analysisId', 'messageId'];

const parse = (body: string) => {
  try {
    return Message.safeParse(JSON.parse(body));
  } catch {
    return Message.safeParse(undefined);
  }
};

/**
 * Pure: when a failed message should come back. A live lease: just after it could have run out; work
 * waiting for AI capacity: at the quota's retryAt; otherwise the retry schedule (failedAttemptDelaySeconds).
 */
export const retryDelaySeconds = (receiveCount: number, error: unknown): number => {
  if (error instanceof LeaseHeldError) return Math.min(MAX_RETRY_DELAY_SECONDS, Math.ceil(error.retryAfterMs / 1000) + 1);
  const wait = waitOf(error);
  if (wait) return Math.min(MAX_RETRY_DELAY_SECONDS, capacityDelaySeconds(wait.retryAt, new Date()));
  return failedAttemptDelaySeconds(receiveCount);
};

/** The work has to wait (not a failure): for AI capacity, or for its evidence; what to say, and until when. */
const waitOf = (error: unknown): { retryAt: Date; reason: string } | undefined => {
  if (error instanceof QuotaExhaustedError) return { retryAt: error.retryAt, reason: "waiting for the organization's AI share" };
  if (error instanceof WaitingForEvidenceError) return { retryAt: error.retryAt, reason: error.message };
  return undefined;
};

/** Pure: a queue's URL from its ARN (arn:aws:sqs:<region>:<account>:<name>), as the SQS API names it. */
export const queueUrlOf = (arn: string): string => {
  const [, partition, , region, account, name] = arn.split(':');
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://sqs.${region}.${domain}/${account}/${name}`;
};

/** What the work may do with its message: keep it invisible for one more lease. */
export interface MessageControl {
  keepMessage: () => Promise<void>;
}

const setVisibility = async (record: SQSRecord, seconds: number): Promise<void> => {
  try {
    await sqsClient().send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrlOf(record.eventSourceARN),
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: seconds,
      }),
    );
  } catch (error) {
    // the queue's own visibility timeout then decides when it returns: later, never lost
    logger.warn('could not change the message visibility', { seconds, error: error as Error });
  }
};

/** Pure: the delivery delay of a message sent again to wait (AI capacity, evidence) until `retryAt` (1 s .. SQS's 900 s). */
export const capacityDelaySeconds = (retryAt: Date, now: Date): number =>
  Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)));

/** Sends the message again to come back at the wait's retryAt; false when it could not be sent. */
const sendAgainLater = async (queue: QueueName, analysisId: string, wait: { retryAt: Date; reason: string }): Promise<boolean> => {
  const delay = capacityDelaySeconds(wait.retryAt, new Date());
  try {
    await enqueue(queue, { analysis_id: analysisId }, delay);
    logger.info(`${queue}: ${wait.reason}; the analysis is tried again in ${delay} s`, { retryAt: wait.retryAt.toISOString() });
    return true;
  } catch (sendError) {
    logger.warn(`${queue}: could not send the message again to wait; it is returned instead`, { error: sendError as Error });
    return false;
  }
};

/**
 * Every line about a message carries its analysis, its message id and a correlation id: the request
 * that queued it, or (a message sent without one) the analysis; messages the work sends carry it on.
 */
export const analysisWorker = (name: string, queue: QueueName, work: (analysisId: string, message: MessageControl) => Promise<unknown>) =>
  withLambdaContext(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const message = parse(record.body);
      if (!message.success) {
        logger.error(`${name} message is malformed; left for the DLQ`, { messageId: record.messageId, body: record.body.slice(0, 200) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
        continue;
      }
      const analysisId = message.data.analysis_id;
      logger.appendKeys({ correlation_id: message.data.correlation_id ?? analysisId, analysisId, messageId: record.messageId });
      const leaseSeconds = Math.ceil(leaseMs() / 1000);
      try {
        await setVisibility(record, leaseSeconds);
        const outcome = await work(analysisId, { keepMessage: () => setVisibility(record, leaseSeconds) });
        logger.info(`${name} message handled`, { outcome });
      } catch (error) {
        const wait = waitOf(error);
        if (wait && (await sendAgainLater(queue, analysisId, wait))) continue;
        const delay = retryDelaySeconds(Number(record.attributes.ApproximateReceiveCount ?? 1), error);
        if (error instanceof LeaseHeldError)
          logger.info(`${name}: the analysis is held by a live worker; the message returns in ${delay} s`);
        else logger.error(`${name} failed; the message will be retried in ${delay} s`, { error: error as Error });
        await setVisibility(record, delay);
        batchItemFailures.push({ itemIdentifier: record.messageId });
      } finally {
        logger.removeKeys(MESSAGE_KEYS);
      }
    }
    return { batchItemFailures };
  });
