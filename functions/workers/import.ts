/**
 * Import worker (SQS, batch size 1): a message is the files bucket's "Object Created" event for a bulk import's file
 * (EventBridge → the imports queue), or the rest of an import a run handed on; the import runs a part at a time
 * (layers/core/ingestion/import-run.ts). A message that is neither is reported back, for the DLQ.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { database } from '#core/db/connection';
import { wakeEmbedding } from '#core/embeddings/wake';
import { objectCreatedIn } from '#core/ingestion/arrivals';
import { s3ImportFiles } from '#core/ingestion/import-files';
import { importOfKey, runImport } from '#core/ingestion/import-run';
import { logger, withLambdaContext } from '#core/logger';
import { enqueue } from '#core/queues';

const processor = new BatchProcessor(EventType.SQS);
const continuation = z.object({ import_id: z.uuid() });

/** The import a message is about: its file's key (the event), or the id a continuation names. */
const importIn = (body: string): string | undefined => {
  const object = objectCreatedIn(body);
  if (object) return importOfKey(object.key);
  try {
    return continuation.parse(JSON.parse(body)).import_id;
  } catch {
    return undefined;
  }
};

const run = async (record: SQSRecord): Promise<void> => {
  const importId = importIn(record.body);
  if (!importId) throw new Error(`message ${record.messageId} names no import`);
  const outcome = await runImport(
    {
      db: await database(),
      files: s3ImportFiles(),
      wake: (id, options) => wakeEmbedding(id, options),
      continueLater: (id) => enqueue('imports', { import_id: id }),
    },
    importId,
  );
  logger.info('import part handled', { importId, outcome, messageId: record.messageId });
};

export const handler = withLambdaContext((event: SQSEvent, context) => processPartialResponse(event, run, processor, { context }));
