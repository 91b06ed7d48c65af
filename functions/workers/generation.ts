/**
 * Generation worker (SQS, batch size 1): generates each analysis named in the batch. A message whose
 * work failed for a reason worth retrying, or that is malformed, is reported back, so it returns after
 * the visibility timeout and, in the end, rests in the DLQ; a final failure (both AI regions down,
 * unreadable answer) is recorded on the analysis and the message is done.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { aiGateway } from '../../layers/core/ai/gateway';
import { generateAnalysis } from '../../layers/core/analysis/generation';
import { database } from '../../layers/core/db/connection';
import { logger } from '../../layers/core/logger';
import { enqueue } from '../../layers/core/queues';

const Message = z.object({ analysis_id: z.uuid() });

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const [db, gateway] = await Promise.all([database(), aiGateway()]);
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const message = Message.safeParse((() => { try { return JSON.parse(record.body); } catch { return undefined; } })());
    if (!message.success) {
      // it can never succeed: failed back until it rests in the DLQ, where it can be inspected
      logger.error('generation message is malformed', { messageId: record.messageId, body: record.body.slice(0, 200) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
      continue;
    }
    try {
      const outcome = await generateAnalysis({ db, gateway, onComplete: (id) => enqueue('quality', { analysis_id: id }) }, message.data.analysis_id);
      logger.info('generation message handled', { analysisId: message.data.analysis_id, outcome });
    } catch (error) {
      logger.error('generation failed; the message will be retried', { analysisId: message.data.analysis_id, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
