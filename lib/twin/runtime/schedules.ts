/**
 * EventBridge Scheduler on this machine: each schedule of the synthesized stacks on a timer, invoking its
 * target function in the twin's Lambda runtime with the schedule's input, never overlapping itself. A run
 * that fails or times out is recorded as failed (runs()). The twin is not always running, so each
 * schedule also runs once at start (a catch-up for the runs it missed while stopped — that is how the
 * first start embeds the seeded demo data).
 */
import { rateToMs } from '#manifest';
import type { PlanSchedule } from '../assembly/plan';
import type { InvokeOutcome } from './lambda';

export interface ScheduleRun {
  schedule: string;
  functionId: string;
  startedAt: Date;
  ok: boolean;
  timedOut: boolean;
  error?: string;
  durationMs: number;
}

export const startSchedule = (
  schedule: PlanSchedule,
  invoke: (event: unknown) => Promise<InvokeOutcome>,
  record: (run: ScheduleRun) => void,
  log: (line: string) => void,
) => {
  let running: Promise<void> | undefined;
  const event: unknown = schedule.input === undefined ? {} : JSON.parse(schedule.input);
  const run = () => {
    const startedAt = new Date();
    running ??= invoke(event)
      .then((outcome) => {
        record({
          schedule: schedule.name,
          functionId: schedule.functionId,
          startedAt,
          ok: outcome.ok,
          durationMs: outcome.durationMs,
          timedOut: !outcome.ok && outcome.timedOut,
          ...(!outcome.ok && { error: `${outcome.error.errorType}: ${outcome.error.errorMessage}` }),
        });
        log(
          `${schedule.functionId} (${schedule.expression}): ${outcome.ok ? JSON.stringify(outcome.value) : `failed: ${outcome.error.errorMessage}`}`,
        );
      })
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, rateToMs(schedule.expression as Parameters<typeof rateToMs>[0]));
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
