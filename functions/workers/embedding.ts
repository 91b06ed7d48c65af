/**
 * Embedding worker (SQS wake-ups, batch size 10): one run of the embedding work per batch — chunks embedded 96 to a
 * request within the quota, analyses first, a partial request waiting briefly while an upload still streams in — and
 * a delayed wake-up of itself when work is left (layers/core/embeddings/worker.ts).
 */
import { aiGateway } from '#core/ai/gateway';
import { database } from '#core/db/connection';
import { embedWaitingChunks, gatewayEmbedder, STREAM_LINGER } from '#core/embeddings/embedding-work';
import { embeddingWorker } from '#core/embeddings/worker';

export const handler = embeddingWorker(async (timeBudgetMs, doneWriting) => {
  const [db, gateway] = await Promise.all([database(), aiGateway()]);
  return embedWaitingChunks(db, { embedder: gatewayEmbedder(gateway), timeBudgetMs, linger: STREAM_LINGER, doneWriting });
});
