/**
 * EventBridge Scheduler on this machine: each schedule trigger on a timer, never overlapping itself.
 * The twin is not always running, so each schedule also runs once at start (a catch-up for the runs it
 * missed while stopped — that is how the first start embeds the seeded demo data).
 */
import { rateToMs, scheduledEvent, type FunctionSpec, type ScheduleTrigger } from '../manifest';
import { lambdaContext, type LambdaHandler } from './gateway';

export const startSchedule = (fn: FunctionSpec, trigger: ScheduleTrigger, handler: LambdaHandler, log: (line: string) => void) => {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= handler(scheduledEvent(fn, trigger), lambdaContext(fn, crypto.randomUUID()))
      .then((result) => log(`${fn.id} (${trigger.expression}): ${JSON.stringify(result)}`))
      .catch((error: unknown) => log(`${fn.id} (${trigger.expression}) failed: ${(error as Error).message}`))
      .finally(() => { running = undefined; });
  };
  const timer = setInterval(run, rateToMs(trigger.expression));
  timer.unref();
  run();
  return {
    /** the run in progress, if any (tests and start-up wait on it) */
    settled: () => running ?? Promise.resolve(),
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
};
