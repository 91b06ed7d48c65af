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

/**
 * How evidence coming in is watched (the investigation's readiness, an import, a new item's files): every 3 seconds
 * for the first 2 minutes, then every 15 (embedding waits on the model's quota, a large import takes a while), and
 * no more after 30 minutes: the page says so and offers to check again. Stops as soon as nothing is in progress.
 */
export const INGESTION_POLLING = { intervalMs: 3_000, slowIntervalMs: 15_000, slowAfterMs: 2 * 60_000, maxMs: 30 * 60_000 } as const;

/** An investigation's readiness changes by waiting while an item is processing or an import is under way. */
export const ingestionBusy = (summary: { items_processing: number; imports_in_progress: number }): boolean =>
  summary.items_processing > 0 || summary.imports_in_progress > 0;

/** Import statuses that change by waiting. */
const IMPORT_IN_PROGRESS = new Set(['awaiting_upload', 'queued', 'processing']);

export const importInProgress = (status: string): boolean => IMPORT_IN_PROGRESS.has(status);

/** What to do after a check that found the evidence `busy` (or not), `elapsedMs` after watching started. */
export const ingestionStep = (busy: boolean, elapsedMs: number, rule: typeof INGESTION_POLLING = INGESTION_POLLING): PollStep => {
  if (!busy) return { next: 'stop' };
  const inMs = elapsedMs < rule.slowAfterMs ? rule.intervalMs : rule.slowIntervalMs;
  if (elapsedMs + inMs > rule.maxMs) return { next: 'timeout' };
  return { next: 'wait', inMs };
};
