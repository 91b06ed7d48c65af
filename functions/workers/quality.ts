/**
 * Quality worker (SQS, batch size 1): runs the faithfulness and coverage checks of each analysis named
 * in the batch (layers/core/analysis/quality.ts). A failed or shed check is recorded on the analysis;
 * only an error that could not even be recorded is retried (layers/core/analysis/worker.ts).
 */
import { aiGateway } from '#core/ai/gateway';
import { runQualityCheck } from '#core/analysis/quality';
import { analysisWorker } from '#core/analysis/worker';
import { database } from '#core/db/connection';

export const handler = analysisWorker('quality check', 'quality', async (analysisId, { keepMessage }) => {
  const [db, gateway] = await Promise.all([database(), aiGateway()]);
  return runQualityCheck({ db, gateway, keepMessage }, analysisId);
});
