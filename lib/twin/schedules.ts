/** EventBridge Scheduler on this machine: each schedule trigger on a timer, never overlapping itself. */
import { rateToMs, scheduledEvent, type FunctionSpec, type ScheduleTrigger } from '../manifest';
import { lambdaContext, type LambdaHandler } from './gateway';

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
