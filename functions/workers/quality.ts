/**
 * Quality worker (SQS, batch size 1): runs the faithfulness and coverage checks of each analysis named
 * in the batch (layers/core/analysis/quality.ts). A failed or shed check is recorded on the analysis
 * and the message is done; only an unexpected error (the failure could not even be recorded) is
 * reported back, so the message returns after the visibility timeout and, in the end, reaches the DLQ.
 * A malformed message is reported back too rather than dropped: it ends in the DLQ where an operator
 * can see it, never silently lost.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { aiGateway } from '../../layers/core/ai/gateway';
import { runQualityCheck } from '../../layers/core/analysis/quality';
import { database } from '../../layers/core/db/connection';
import { logger } from '../../layers/core/logger';

const Message = z.object({ analysis_id: z.uuid() });

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const [db, gateway] = await Promise.all([database(), aiGateway()]);
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const message = Message.safeParse((() => { try { return JSON.parse(record.body); } catch { return undefined; } })());
    if (!message.success) {
      logger.error('quality message is malformed; left for the DLQ', { messageId: record.messageId, body: record.body.slice(0, 200) });
      batchItemFailures.push({ itemIdentifier: record.messageId });
      continue;
    }
    try {
      const outcome = await runQualityCheck({ db, gateway }, message.data.analysis_id);
      logger.info('quality message handled', { analysisId: message.data.analysis_id, outcome });
    } catch (error) {
      logger.error('quality check could not be recorded; the message will be retried', { analysisId: message.data.analysis_id, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
