/**
 * The spec's polling rule for a generation: check every 3 seconds for up to 5 minutes (SPEC "Polling
 * interval", "Polling maximum"). Pure: the caller owns the clock.
 */
export const POLLING = { intervalMs: 3_000, maxMs: 5 * 60_000 } as const;

/** Statuses that change by waiting: the generation, then its quality checks (the answer is readable from `checking` on). */
const IN_PROGRESS = new Set(['queued', 'generating', 'checking']);

export const inProgress = (status: string): boolean => IN_PROGRESS.has(status);

export type PollStep = { next: 'stop' } | { next: 'wait'; inMs: number } | { next: 'timeout' };

/** What to do after a check that found `status`, `elapsedMs` after polling started. */
export const pollStep = (status: string, elapsedMs: number, rule: { intervalMs: number; maxMs: number } = POLLING): PollStep => {
  if (!inProgress(status)) return { next: 'stop' };
  if (elapsedMs + rule.intervalMs > rule.maxMs) return { next: 'timeout' };
  return { next: 'wait', inMs: rule.intervalMs };
};
