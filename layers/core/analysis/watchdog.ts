/**
 * The analysis watchdog (a schedule, every 5 minutes): nothing stays in flight for ever (SPEC: "never
 * stuck on checking"). A row's `updated_at` is when it entered its current in-flight status (nothing
 * else writes an in-flight row), so age = now − updated_at.
 *
 * Limits, derived from the manifest so they follow its timeouts:
 * - checking → complete ('quality check did not finish', `[QUALITY_CHECK_FAILURE]`) after 10 minutes.
 *   A live quality worker holds a row for at most its timeout (120 s); 10 minutes is 5 × that, which
 *   leaves room for queue latency between the move to checking and the worker starting. Releasing a
 *   row whose worker crashed is safe even while its message is still waiting for redelivery (up to
 *   maxReceiveCount × the 720 s visibility timeout): the redelivered message finds complete and runs
 *   the checks again (see quality.ts), so the limit need not wait for the DLQ.
 * - generating → failed after the generation worker's timeout × the queue's maxReceiveCount + 5 min
 *   (300 s × 3 + 5 min = 20 min). A worker holds a generation for at most its timeout; a redelivered
 *   message never re-claims a generating row (the claim is from queued only), so a row still
 *   generating this long was left by a crashed worker and its message is done or dead-lettered.
 * - queued → failed after maxReceiveCount × the generation queue's visibility timeout + 30 min
 *   (3 × 1800 s + 30 min = 2 h): by then the message has been received for the last time and sits in
 *   the DLQ (or was never sent). Should a late message still arrive, it finds the row failed and does
 *   nothing; the user retries.
 * The failed rows get a message the user can act on (retry later); the evidence is untouched.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import { functionById, queues, visibilityTimeoutSeconds } from '../../../lib/manifest';
import type { Database, GenerationStatus } from '../db/schema';
import { logger } from '../logger';
import { QUALITY_FAILURE_MARKER } from './quality';

const MINUTE = 60_000;

export interface WatchdogLimits {
  checkingMs: number;
  generatingMs: number;
  queuedMs: number;
}

export const WATCHDOG_LIMITS: WatchdogLimits = {
  checkingMs: Math.max(10 * MINUTE, 5 * functionById('quality-worker').timeoutSeconds * 1000),
  generatingMs: functionById('generation-worker').timeoutSeconds * 1000 * queues.generation.maxReceiveCount + 5 * MINUTE,
  queuedMs: visibilityTimeoutSeconds('generation') * 1000 * queues.generation.maxReceiveCount + 30 * MINUTE,
};

export const WATCHDOG_MESSAGES = {
  checking: 'quality check did not finish',
  generating: 'The analysis did not finish generating (the worker stopped). Nothing was lost; please try again.',
  queued: 'The analysis never started (its request expired in the queue). Nothing was lost; please try again.',
} as const;

export type StaleAction = 'release_checking' | 'fail_generating' | 'fail_queued';

/** Pure: what to do with one row at `now`, or undefined when it is not stale. */
export const staleAction = (
  row: { generation_status: GenerationStatus; updated_at: Date },
  now: Date,
  limits: WatchdogLimits = WATCHDOG_LIMITS,
): StaleAction | undefined => {
  const age = now.getTime() - new Date(row.updated_at).getTime();
  if (row.generation_status === 'checking' && age > limits.checkingMs) return 'release_checking';
  if (row.generation_status === 'generating' && age > limits.generatingMs) return 'fail_generating';
  if (row.generation_status === 'queued' && age > limits.queuedMs) return 'fail_queued';
  return undefined;
};

/** Pure: the cut-off per status (rows with updated_at before it are stale). */
export const staleBefore = (now: Date, limits: WatchdogLimits = WATCHDOG_LIMITS) => ({
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
  // each update is conditional on the status and the age, so a row that moved on meanwhile is left alone,
  // and on the lease: a row a live worker holds is never released under it (lease.ts)
  const unleased = (eb: ExpressionBuilder<Database, 'analyses'>) =>
    eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]);
  const released = await db.updateTable('analyses')
    .set({ generation_status: 'complete', quality_error: WATCHDOG_MESSAGES.checking, claimed_until: null, updated_at: now })
    .where('generation_status', '=', 'checking').where('updated_at', '<', cut.checking).where(unleased)
    .returning('id').execute();
  for (const { id } of released) logger.error(QUALITY_FAILURE_MARKER, { analysisId: id, reason: WATCHDOG_MESSAGES.checking });

  const generating = await db.updateTable('analyses')
    .set({ generation_status: 'failed', error_message: WATCHDOG_MESSAGES.generating, claimed_until: null, updated_at: now })
    .where('generation_status', '=', 'generating').where('updated_at', '<', cut.generating).where(unleased)
    .returning('id').execute();
  const queued = await db.updateTable('analyses')
    .set({ generation_status: 'failed', error_message: WATCHDOG_MESSAGES.queued, updated_at: now })
    .where('generation_status', '=', 'queued').where('updated_at', '<', cut.queued)
    .returning('id').execute();
  for (const { id } of [...generating, ...queued]) logger.warn('watchdog failed a stale analysis', { analysisId: id });

  const report = { checking_released: released.length, generating_failed: generating.length, queued_failed: queued.length };
  logger.info('analysis watchdog ran', { ...report });
  return report;
};
