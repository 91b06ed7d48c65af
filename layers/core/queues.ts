/** Sending work to the service's queues (generation, quality checks, embedding wake-ups, the rest of an import). */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { QueueName } from '#manifest';
import { sqsClient } from '#core/aws/clients';
import { QUEUE_URL_ENV } from '#manifest/runtime-names';
import { requireEnv } from './config';
import { correlationId } from './logger';

export interface AnalysisMessage {
  analysis_id: string;
  /**
   * The sender's correlation id (the request that asked for the work), for the worker's logs; set by
   * `enqueue`. Optional: a message sent before it existed, or from outside an invocation, still works.
   */
  correlation_id?: string;
}

/**
 * A wake-up of the embedding worker (embeddings/wake.ts). Any body wakes it — the database is its work list —
 * so the investigation only labels the worker's log lines.
 */
export interface EmbeddingWakeUp {
  investigation_id?: string;
  correlation_id?: string;
}

/** The rest of a bulk import, which the run that stopped hands on (ingestion/import-run.ts). */
export interface ImportContinuation {
  import_id: string;
  correlation_id?: string;
}

/** SQS's longest delivery delay of one message. */
export const MAX_DELAY_SECONDS = 900;

/**
 * Sends the message, with the running invocation's correlation id, so the work can be followed in the
 * logs from the request that queued it; `delaySeconds` (0..900) keeps it from consumers that long.
 */
export const enqueue = async (
  queue: QueueName,
  message: AnalysisMessage | EmbeddingWakeUp | ImportContinuation,
  delaySeconds?: number,
): Promise<void> => {
  const correlation_id = message.correlation_id ?? correlationId();
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: requireEnv(QUEUE_URL_ENV[queue]),
      MessageBody: JSON.stringify({ ...message, ...(correlation_id !== undefined && { correlation_id }) }),
      ...(delaySeconds !== undefined && { DelaySeconds: delaySeconds }),
    }),
  );
};
