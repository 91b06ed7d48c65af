/**
 * The analysis watchdog on its schedule (`{ source: 'schedule', function_id, expression }`, every
 * 5 minutes; the twin also runs it once at start): releases analyses stuck in checking and fails
 * those stuck in generating or queued (layers/core/analysis/watchdog.ts). A run that breaks throws,
 * so EventBridge Scheduler retries it.
 */
import { runWatchdog } from '#core/analysis/watchdog';
import { database } from '#core/db/connection';
import { withLambdaContext } from '#core/logger';

interface ScheduledEvent {
  source: 'schedule';
  function_id?: string;
  expression?: string;
}

const isScheduled = (event: object): event is ScheduledEvent => (event as { source?: unknown }).source === 'schedule';

export const handler = withLambdaContext(async (event: object) => {
  if (!isScheduled(event)) throw new Error('analysis-watchdog: unrecognised event (expected a scheduled run)');
  return runWatchdog(await database());
});
