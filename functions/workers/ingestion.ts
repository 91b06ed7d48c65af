/**
 * Ingestion worker (SQS, partial batch responses): each message is the files bucket's "Object Created" event for a
 * file an investigator uploaded (EventBridge → the ingestion queue); its text is extracted, chunked and queued for
 * embedding (layers/core/ingestion/arrivals.ts). A message that is no such event is reported back, for the DLQ.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { database } from '#core/db/connection';
import { wakeEmbedding } from '#core/embeddings/wake';
import { s3FileReader } from '#core/files/object-store';
import { handleArrival, objectCreatedIn } from '#core/ingestion/arrivals';
import { logger, withLambdaContext } from '#core/logger';

const processor = new BatchProcessor(EventType.SQS);

const arrived = async (record: SQSRecord): Promise<void> => {
  const object = objectCreatedIn(record.body);
  if (!object) throw new Error(`message ${record.messageId} is not an S3 Object Created event`);
  const outcome = await handleArrival({ db: await database(), files: s3FileReader(), wake: (id) => wakeEmbedding(id) }, object.key);
  logger.info('file arrival handled', { key: object.key, outcome, messageId: record.messageId });
};

export const handler = withLambdaContext((event: SQSEvent, context) => processPartialResponse(event, arrived, processor, { context }));
