/** Sending work to the service's queues (generation, quality checks). */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { QueueName } from '../../lib/manifest';
import { sqsClient } from './aws/clients';
import { ENV, requireEnv } from './config';

const URL_VAR: Record<QueueName, string> = { generation: ENV.generationQueueUrl, quality: ENV.qualityQueueUrl };

export interface AnalysisMessage {
  analysis_id: string;
}

export const enqueue = async (queue: QueueName, message: AnalysisMessage): Promise<void> => {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: requireEnv(URL_VAR[queue]), MessageBody: JSON.stringify(message) }));
};
