/** EventBridge Scheduler on this machine: each schedule trigger on a timer, never overlapping itself. */
import { rateToMs, type FunctionSpec, type ScheduleTrigger } from '../manifest';
import { lambdaContext, type LambdaHandler } from './gateway';

/** What a scheduled invocation receives (the CDK schedules send the same input). */
export const scheduledEvent = (fn: FunctionSpec, trigger: ScheduleTrigger) => ({ source: 'schedule', function_id: fn.id, expression: trigger.expression });

export const startSchedule = (fn: FunctionSpec, trigger: ScheduleTrigger, handler: LambdaHandler, log: (line: string) => void) => {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    handler(scheduledEvent(fn, trigger), lambdaContext(fn, crypto.randomUUID()))
      .then((result) => log(`${fn.id} (${trigger.expression}): ${JSON.stringify(result)}`))
      .catch((error: unknown) => log(`${fn.id} (${trigger.expression}) failed: ${(error as Error).message}`))
      .finally(() => { busy = false; });
  }, rateToMs(trigger.expression));
  timer.unref();
  return { stop: () => clearInterval(timer) };
};
