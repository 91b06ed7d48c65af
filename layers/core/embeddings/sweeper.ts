/**
 * The embedding sweeper, the backstop of the embedding worker (the spec's hourly sweep): one run of the same work
 * (embedding-work.ts) within its time budget — rows written without chunks materialised, chunks embedded 96 to a
 * request, another model's vectors set to be embedded again — then, what a killed worker may have left: every
 * duplicate lacking its representative's vector, every source whose chunks are all embedded but not marked so.
 * It reports what is left.
 *
 * A run ends when nothing is left, at its request limit, when its time budget is spent (a full quota whose room comes
 * after the budget included), or when the AI service is unavailable (throttling, outage, network) or the embedding
 * model is misconfigured — going on would only fail every request, and no text is blamed for it.
 *
 * pendingOver24hAfterSweep = rows with status other than `embedded` created more than 24 hours before the end of the
 * sweep — pending ones, retryable errors and given-up errors alike. 0 means healthy.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { EMBEDDING_MAX_ATTEMPTS } from '#core/ingestion/readiness';
import { runTiming } from '#core/operations/report';
import { embedWaitingChunks, type WorkOptions, type WorkTally } from './embedding-work';
import type { StoppedBy, SweepReport } from './report';
import { countBacklog } from './sources';

export const SWEEP_DEFAULTS = {
  maxAttempts: EMBEDDING_MAX_ATTEMPTS,
  /** leaves a minute of the 300 s Lambda timeout for the last request and the report */
  timeBudgetMs: 240_000,
} as const;

/** How old an unembedded source may be before it counts in pendingOver24hAfterSweep. */
const PENDING_ALARM_AGE_MS = 24 * 60 * 60 * 1000;

export interface SweepOptions extends Omit<WorkOptions, 'timeBudgetMs' | 'backstop'> {
  /** default SWEEP_DEFAULTS.timeBudgetMs */
  timeBudgetMs?: number;
}

/** Rows created before this instant count in pendingOver24hAfterSweep. */
export const pendingCutoff = (at: Date): Date => new Date(at.getTime() - PENDING_ALARM_AGE_MS);

export const buildReport = (input: {
  tally: WorkTally;
  backlog: { pendingOlderThanCutoff: number; remaining: number; givenUp: number };
  maxAttempts: number;
  stoppedBy: StoppedBy;
  startedAt: Date;
  finishedAt: Date;
}): SweepReport => {
  const { embedded, chunks, failed, gave_up, skipped, removed } = input.tally;
  return {
    embedded,
    chunks,
    failed,
    gave_up,
    skipped,
    removed,
    remaining: input.backlog.remaining,
    errors_given_up: input.backlog.givenUp,
    pendingOver24hAfterSweep: input.backlog.pendingOlderThanCutoff,
    max_attempts: input.maxAttempts,
    stopped_by: input.stoppedBy,
    ...runTiming(input.startedAt, input.finishedAt),
  };
};

export const sweepEmbeddings = async (db: Kysely<Database>, options: SweepOptions): Promise<SweepReport> => {
  const now = options.now ?? (() => new Date());
  const maxAttempts = options.maxAttempts ?? SWEEP_DEFAULTS.maxAttempts;
  const startedAt = now();
  const outcome = await embedWaitingChunks(db, {
    ...options,
    now,
    maxAttempts,
    timeBudgetMs: options.timeBudgetMs ?? SWEEP_DEFAULTS.timeBudgetMs,
    backstop: true,
  });
  const finishedAt = now();
  const backlog = await countBacklog(db, { cutoff: pendingCutoff(finishedAt), maxAttempts });
  return buildReport({ tally: outcome, backlog, maxAttempts, stoppedBy: outcome.stopped_by, startedAt, finishedAt });
};
