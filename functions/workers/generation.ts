/**
 * Generation worker (SQS, batch size 1): generates each analysis named in the batch; a final failure
 * (both AI regions down, unreadable answer) is recorded on the analysis, anything else is retried
 * (layers/core/analysis/worker.ts). A completed analysis gets its quality checks queued.
 */
import { aiGateway } from '#core/ai/gateway';
import { generateAnalysis } from '#core/analysis/generation';
import { analysisWorker } from '#core/analysis/worker';
import { database } from '#core/db/connection';
import { enqueue } from '#core/queues';

export const handler = analysisWorker('generation', 'generation', async (analysisId, { keepMessage }) => {
  const [db, gateway] = await Promise.all([database(), aiGateway()]);
  return generateAnalysis({ db, gateway, keepMessage, onComplete: (id) => enqueue('quality', { analysis_id: id }) }, analysisId);
});
