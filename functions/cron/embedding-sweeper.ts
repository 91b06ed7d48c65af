/**
 * The embedding sweeper, on both of its triggers:
 * - POST /api/admin/cron/embedding-sweeper (cron bearer or admin token, enforced by the route wrapper) → 200
 *   with the report; a sweep that breaks answers 500 and its job_runs row says why;
 * - the hourly schedule → the report; a sweep that breaks throws, so EventBridge Scheduler retries it.
 */
import { database } from '#core/db/connection';
import { aiGateway } from '#core/ai/gateway';
import { embeddingSweeperRoute } from '#core/embeddings/contract';
import { gatewayEmbedder } from '#core/embeddings/embedding-work';
import { runEmbeddingSweep, timeBudgetFor } from '#core/embeddings/job';
import { scheduledJobHandler } from '#core/http/scheduled-job';

export const handler = scheduledJobHandler(embeddingSweeperRoute, async (trigger, context) =>
  runEmbeddingSweep(await database(), {
    trigger,
    // regional fallback, quota and ledger, like every AI call; background: it leaves part of the primary region's quota (ai/quota.ts)
    embedder: gatewayEmbedder(await aiGateway()),
    timeBudgetMs: timeBudgetFor(trigger, context?.getRemainingTimeInMillis?.()),
  }),
);
