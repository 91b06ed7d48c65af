/**
 * The loop both analysis workers share (SQS, partial batch responses): each message names an analysis;
 * its work either finishes (success, or a failure recorded on the analysis) or throws, and then the
 * message is reported back to return after the visibility timeout and, in the end, rest in the DLQ.
 * A malformed message is reported back too: it ends in the DLQ where an operator can see it.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { logger } from '../logger';

const Message = z.object({ analysis_id: z.uuid() });

const parse = (body: string) => {
  try {
    return Message.safeParse(JSON.parse(body));
  } catch {
    return Message.safeParse(undefined);
  }
};

export const analysisWorker = (name: string, work: (analysisId: string) => Promise<unknown>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const message = parse(record.body);
      if (!message.success) {
        logger.error(`${name} message is malformed; left for the DLQ`, { messageId: record.messageId, body: record.body.slice(0, 200) });
        batchItemFailures.push({ itemIdentifier: record.messageId });
        continue;
      }
      const analysisId = message.data.analysis_id;
      try {
        logger.info(`${name} message handled`, { analysisId, outcome: await work(analysisId) });
      } catch (error) {
        logger.error(`${name} failed; the message will be retried`, { analysisId, error: error as Error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
