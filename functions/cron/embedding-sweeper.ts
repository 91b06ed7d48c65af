/**
 * The embedding sweeper, on both of its triggers:
 * - POST /api/admin/cron/embedding-sweeper (cron bearer or admin token, enforced by httpRoute) → 200
 *   with the report; a sweep that breaks answers 500 and its job_runs row says why;
 * - the hourly schedule (`{ source: 'schedule', function_id, expression }`) → the report; a sweep that
 *   breaks throws, so EventBridge Scheduler retries it.
 */
import type { Context } from 'aws-lambda';
import { database } from '../../layers/core/db/connection';
import { aiGateway } from '../../layers/core/ai/gateway';
import { runEmbeddingSweep, timeBudgetFor, type JobTrigger } from '../../layers/core/embeddings/job';
import { httpRoute, type HttpEvent } from '../../layers/core/http/route';

const sweep = async (trigger: JobTrigger, context: Context | undefined) => {
  const gateway = await aiGateway();
  return runEmbeddingSweep(await database(), {
    trigger,
    // regional fallback, quota and ledger, like every AI call
    embed: async (text) => (await gateway.embed(text)).embedding,
    timeBudgetMs: timeBudgetFor(trigger, context?.getRemainingTimeInMillis?.()),
  });
};

// API Gateway's 30 s caps an HTTP run well inside the function's own timeout, so no context is needed
const http = httpRoute(async () => ({ body: await sweep('http', undefined) }));

interface ScheduledEvent { source: 'schedule'; function_id?: string; expression?: string }

const isScheduled = (event: object): event is ScheduledEvent => (event as { source?: unknown }).source === 'schedule';

export const handler = async (event: HttpEvent | ScheduledEvent, context: Context) => {
  if ('routeKey' in event) return http(event, context);
  if (isScheduled(event)) return sweep('schedule', context);
  throw new Error('embedding-sweeper: unrecognised event (expected an HTTP API request or a scheduled run)');
};
