/** Sending work to the service's queues (generation, quality checks). */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { QueueName } from '../../lib/manifest';
import { sqsClient } from './aws/clients';
import { QUEUE_URL_ENV } from '../../lib/runtime-names';
import { requireEnv } from './config';

export interface AnalysisMessage {
  analysis_id: string;
}

/** SQS's longest delivery delay of one message. */
export const MAX_DELAY_SECONDS = 900;

/** Sends the message; `delaySeconds` (0..900) keeps it from consumers that long. */
export const enqueue = async (queue: QueueName, message: AnalysisMessage, delaySeconds?: number): Promise<void> => {
  await sqsClient().send(new SendMessageCommand({
    QueueUrl: requireEnv(QUEUE_URL_ENV[queue]), MessageBody: JSON.stringify(message), ...(delaySeconds !== undefined && { DelaySeconds: delaySeconds }),
  }));
};
