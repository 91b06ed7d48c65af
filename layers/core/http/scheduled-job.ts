/**
 * One Lambda handler for a job that has both a schedule and a cron route (DESIGN: "the same handlers
 * back the cron routes"):
 * - the cron route (cron bearer or admin token, enforced by `route`) → 200 with what the run
 *   returns; a run that breaks answers 500;
 * - the schedule (`{ source: 'schedule', function_id, expression }`) → what the run returns; a run that
 *   breaks throws, so EventBridge Scheduler retries it.
 */
import type { Context } from 'aws-lambda';
import type { JobTrigger } from '#core/embeddings/job';
import type { RouteContract } from '#core/contract';
import { cronAccess } from './cron-access';
import { route, type RouteAnswer, type HttpEvent } from './route';
import { withLambdaContext } from '#core/logger';

export interface ScheduledEvent {
  source: 'schedule';
  function_id?: string;
  expression?: string;
}

const isScheduled = (event: object): event is ScheduledEvent => (event as { source?: unknown }).source === 'schedule';

export const scheduledJobHandler = <C extends RouteContract>(
  contract: C,
  run: (trigger: JobTrigger, context: Context | undefined) => Promise<RouteAnswer<C>['body']>,
) => {
  // API Gateway's 30 s caps an HTTP run well inside the function's own timeout, so no context is needed
  const http = route(contract, async () => ({ body: await run('http', undefined) }), { cronAccess });
  // `route` puts the Lambda context on its own lines; a scheduled run gets it here (once per invocation)
  const scheduled = withLambdaContext(async (_event: ScheduledEvent, context: Context) => run('schedule', context));
  return async (event: HttpEvent | ScheduledEvent, context: Context) => {
    if ('routeKey' in event) return http(event, context);
    if (isScheduled(event)) return scheduled(event, context);
    throw new Error(`${contract.route}: unrecognised event (expected an HTTP API request or a scheduled run)`);
  };
};
