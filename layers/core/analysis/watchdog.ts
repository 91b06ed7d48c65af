/**
 * The analysis watchdog (a schedule, every 5 minutes): nothing stays in flight for ever (SPEC: "never
 * stuck on checking"). It is the backstop, not the way analyses recover: a crashed worker's analysis is
 * taken over by its own message within about a minute (lease.ts, worker.ts), so whenever the AI answers,
 * an analysis reaches a terminal state well inside the client's 5-minute polling window. The watchdog
 * ends only rows whose messages can no longer come back (dead-lettered, or lost).
 *
 * A row's last sign of life is the latest of: when it entered its status (`updated_at`), its worker's
 * lease (`claimed_until`, renewed while the worker lives), and the time it waits for AI capacity until
 * (`ai_wait_until`). Limits after that moment, derived from the manifest and the retry schedule so they
 * follow them:
 * - generating → failed, checking → complete ('quality check did not finish', `[QUALITY_CHECK_FAILURE]`):
 *   once the lease has run out, the message is visible again (the worker kept it invisible one lease at a
 *   time); it may fail and come back on each remaining receive (retryDelaySeconds: 10 + 20 + 40 s for 3
 *   receives), and may wait for a worker of the queue to be free (at most one function timeout: every
 *   invocation ends by then) and a minute of queue and cold-start latency. After that sum (generating:
 *   70 s + 300 s + 60 s ≈ 7 min; checking: 70 s + 120 s + 60 s ≈ 4 min) nothing will take the row over.
 *   Releasing a check early is harmless anyway: a late message finds complete and runs the checks.
 * - queued → failed after maxReceiveCount × the generation queue's visibility timeout + 30 min
 *   (3 × 1800 s + 30 min = 2 h): a queued analysis may legitimately wait behind a backlog (5 workers,
 *   each generation minutes long), so this one is generous; by then its message has been received for
 *   the last time and sits in the DLQ (or was never sent). Should a late message still arrive, it finds
 *   the row failed and does nothing; the user retries.
 * The failed rows get a message the user can act on (retry later); the evidence is untouched.
 */
import { sql, type Kysely } from 'kysely';
import { functionById, queues, visibilityTimeoutSeconds, type QueueName } from '#manifest';
import type { Database, GenerationStatus } from '#core/db/schema';
import { guardedMove } from '#core/domain/generation-status';
import { logger } from '#core/logger';
import { countEvent } from '#core/metrics';
import { QUALITY_FAILURE_MARKER } from './quality';
import { failedAttemptDelaySeconds } from './lease';

const MINUTE = 60_000;

export interface WatchdogLimits {
  checkingMs: number;
  generatingMs: number;
  queuedMs: number;
}

/** Pure: how long a failed message can stay away over its remaining receives (the worker's retry schedule). */
export const retryScheduleMs = (maxReceiveCount: number): number =>
  Array.from({ length: maxReceiveCount }, (_, i) => failedAttemptDelaySeconds(i + 1) * 1000).reduce((a, b) => a + b, 0);

/** Pure: after a row's last sign of life, how long its message may still come back and take it over. */
const takeoverWindowMs = (queue: QueueName, workerId: string): number =>
  retryScheduleMs(queues[queue].maxReceiveCount) + functionById(workerId).timeoutSeconds * 1000 + MINUTE;

export const WATCHDOG_LIMITS: WatchdogLimits = {
  checkingMs: takeoverWindowMs('quality', 'quality-worker'),
  generatingMs: takeoverWindowMs('generation', 'generation-worker'),
  queuedMs: visibilityTimeoutSeconds('generation') * 1000 * queues.generation.maxReceiveCount + 30 * MINUTE,
};

export const WATCHDOG_MESSAGES = {
  checking: 'quality check did not finish',
  generating: 'The analysis did not finish generating (the worker stopped). Nothing was lost; please try again.',
  queued: 'The analysis never started (its request expired in the queue). Nothing was lost; please try again.',
} as const;

/** The changes of status the watchdog makes (each checked against the machine when this module loads). */
export const WATCHDOG_MOVES = {
  releaseChecking: guardedMove('checking_stale'),
  failGenerating: guardedMove('generation_failed', ['generating']),
  failQueued: guardedMove('generation_failed', ['queued']),
} as const;

export type StaleAction = 'release_checking' | 'fail_generating' | 'fail_queued';

export interface WatchedRow {
  generation_status: GenerationStatus;
  updated_at: Date;
  claimed_until?: Date | null;
  ai_wait_until?: Date | null;
}

/** Pure: the row's last sign of life (the latest of updated_at, claimed_until, ai_wait_until). */
const lastSignOfLife = (row: WatchedRow): number =>
  Math.max(...[row.updated_at, row.claimed_until, row.ai_wait_until].flatMap((t) => (t ? [new Date(t).getTime()] : [])));

/** Pure: what to do with one row at `now`, or undefined when it is not stale. */
export const staleAction = (row: WatchedRow, now: Date, limits: WatchdogLimits = WATCHDOG_LIMITS): StaleAction | undefined => {
  const age = now.getTime() - lastSignOfLife(row);
  if (row.generation_status === 'checking' && age > limits.checkingMs) return 'release_checking';
  if (row.generation_status === 'generating' && age > limits.generatingMs) return 'fail_generating';
  if (row.generation_status === 'queued' && age > limits.queuedMs) return 'fail_queued';
  return undefined;
};

/** Pure: the cut-off per status (rows whose last sign of life is before it are stale). */
const staleBefore = (now: Date, limits: WatchdogLimits = WATCHDOG_LIMITS) => ({
  checking: new Date(now.getTime() - limits.checkingMs),
  generating: new Date(now.getTime() - limits.generatingMs),
  queued: new Date(now.getTime() - limits.queuedMs),
});

export interface WatchdogReport {
  checking_released: number;
  generating_failed: number;
  queued_failed: number;
}

export const runWatchdog = async (
  db: Kysely<Database>,
  { now = new Date(), limits = WATCHDOG_LIMITS }: { now?: Date; limits?: WatchdogLimits } = {},
): Promise<WatchdogReport> => {
  const cut = staleBefore(now, limits);
  // each update is conditional on the status and the last sign of life, so a row that moved on meanwhile is
  // left alone, and so is one a live worker holds (its lease is in the future) or one waiting for AI capacity
  const quietSince = (before: Date) => sql<boolean>`greatest(updated_at, claimed_until, ai_wait_until) < ${before}`;
  const released = await db
    .updateTable('analyses')
    .set({
      generation_status: WATCHDOG_MOVES.releaseChecking.to,
      quality_error: WATCHDOG_MESSAGES.checking,
      claimed_until: null,
      ai_wait_until: null,
      updated_at: now,
    })
    .where('generation_status', 'in', WATCHDOG_MOVES.releaseChecking.from)
    .where(quietSince(cut.checking))
    .returning('id')
    .execute();
  for (const { id } of released) {
    logger.error(QUALITY_FAILURE_MARKER, { analysisId: id, reason: WATCHDOG_MESSAGES.checking });
    countEvent('qualityCheckFailures');
  }

  const generating = await db
    .updateTable('analyses')
    .set({
      generation_status: WATCHDOG_MOVES.failGenerating.to,
      error_message: WATCHDOG_MESSAGES.generating,
      claimed_until: null,
      updated_at: now,
    })
    .where('generation_status', 'in', WATCHDOG_MOVES.failGenerating.from)
    .where(quietSince(cut.generating))
    .returning('id')
    .execute();
  const queued = await db
    .updateTable('analyses')
    .set({ generation_status: WATCHDOG_MOVES.failQueued.to, error_message: WATCHDOG_MESSAGES.queued, ai_wait_until: null, updated_at: now })
    .where('generation_status', 'in', WATCHDOG_MOVES.failQueued.from)
    .where(quietSince(cut.queued))
    .returning('id')
    .execute();
  for (const { id } of [...generating, ...queued]) logger.warn('watchdog failed a stale analysis', { analysisId: id });

  const report = { checking_released: released.length, generating_failed: generating.length, queued_failed: queued.length };
  logger.info('analysis watchdog ran', { ...report });
  return report;
};
