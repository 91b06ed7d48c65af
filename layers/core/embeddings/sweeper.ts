/**
 * The embedding sweeper: embeds the sources waiting in embedding_sources and reports what is left.
 *
 * One sweep claims sources one at a time (sources.ts: lease, `FOR UPDATE SKIP LOCKED`, so two
 * overlapping sweeps never take the same source) — pending ones first, then those in error below the
 * attempt cap, oldest first in each — and tries each at most once. For a source it chunks the text,
 * embeds every chunk through the injected `embed`, and stores chunks and vectors, replacing the
 * previous ones, in one transaction with the status `embedded`. Any failure leaves the previous
 * chunks in place and records status `error`, attempts + 1 and the error's message; at `maxAttempts`
 * attempts the source is no longer picked (it still counts in pendingOver24hAfterSweep, so the alarm
 * keeps asking for attention until someone re-queues it).
 *
 * A sweep ends when nothing is left, after `batchLimit` sources, when its time budget is spent
 * (checked before each source and each chunk; a source interrupted mid-way is given back untouched),
 * or at the first failure that says the AI service itself is unavailable (throttling, quota, outage,
 * network) — continuing would only burn every source's attempts. A full model quota (the gateway's
 * QuotaExhaustedError, with its retryAt) is a wait, not a failure: the sweep sleeps until retryAt and
 * embeds the chunk then, when that is within its budget (the sweep's calls are background work, which
 * leaves part of the primary region's quota to the investigators: ai/quota.ts BACKGROUND_PRIMARY_LIMIT);
 * past the budget the source is given back untouched.
 *
 * pendingOver24hAfterSweep = rows with status other than `embedded` created more than 24 hours before
 * the end of the sweep — pending ones, retryable errors and given-up errors alike. 0 means healthy.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import { EMBEDDING_DIMENSIONS } from '#core/db/migrations/0001-domain';
import { runTiming } from '#core/operations/report';
import { chunkText, type ChunkOptions } from './chunking';
import type { StoppedBy, SweepReport } from './report';
import {
  claimNextSource,
  countBacklog,
  loadSourceText,
  recordFailure,
  releaseSource,
  removeSource,
  storeChunks,
  toVectorLiteral,
  type ClaimedSource,
  type EmbeddedChunk,
} from './sources';

export const SWEEP_DEFAULTS = {
  maxAttempts: 5,
  /** sources per run; at ~1 s per source this is far more than a 5-minute Lambda gets through */
  batchLimit: 500,
  /** leaves a minute of the 300 s Lambda timeout for the report */
  timeBudgetMs: 240_000,
} as const;

/** How old an unembedded source may be before it counts in pendingOver24hAfterSweep. */
const PENDING_ALARM_AGE_MS = 24 * 60 * 60 * 1000;

/** Longest error_message stored. */
export const MAX_ERROR_MESSAGE = 2000;

/** One text in, its embedding out: the AI gateway's embed in the service, a fake in unit tests. */
type Embed = (text: string) => Promise<number[]>;

export interface SweepOptions {
  embed: Embed;
  /** the clock for the time budget, the report's times and the 24-hour cutoff (default: the system clock) */
  now?: () => Date;
  /** how the sweep waits for a full quota's retryAt (default: a timer; must advance `now` by the time slept) */
  sleep?: (ms: number) => Promise<void>;
  maxAttempts?: number;
  batchLimit?: number;
  timeBudgetMs?: number;
  chunking?: ChunkOptions;
  /** claim lease (default 15 min) */
  leaseMs?: number;
  /** whether a failed embed call means the AI service is unavailable, so the sweep stops (default isSystemicFailure) */
  stopsSweep?: (error: unknown) => boolean;
}

// ---- pure helpers ----------------------------------------------------------------------------

/** The message stored for a failure: the error's own message (its name when it has none), bounded. */
export const errorMessageOf = (error: unknown): string => {
  const message = error instanceof Error ? error.message || error.name : typeof error === 'string' ? error : String(error);
  const text = message.trim() === '' ? 'Unknown error' : message;
  return text.length > MAX_ERROR_MESSAGE ? `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…` : text;
};

const SYSTEMIC_NAMES = new Set([
  'ThrottlingException',
  'ServiceQuotaExceededException',
  'TooManyRequestsException',
  'RateLimitError',
  'ServiceUnavailableException',
  // the AI gateway's own: no quota slot in time, both regions exhausted
  'QuotaExhaustedError',
  'AiUnavailableError',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** A failure of the AI service rather than of this source: throttling, quota, outage, network. */
export const isSystemicFailure = (error: unknown): boolean => {
  const e = (error ?? {}) as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  return (
    (e.name !== undefined && SYSTEMIC_NAMES.has(e.name)) ||
    status === 429 ||
    status === 503 ||
    (e.code !== undefined && NETWORK_CODES.has(e.code))
  );
};

/** When a full model quota has room again (the gateway's QuotaExhaustedError), or undefined for any other failure. */
const quotaRetryAt = (error: unknown): Date | undefined => {
  const e = (error ?? {}) as { name?: string; retryAt?: unknown };
  return e.name === 'QuotaExhaustedError' && e.retryAt instanceof Date ? e.retryAt : undefined;
};

/** Whether a failure that brought a source to `attemptsAfter` attempts means it is given up. */
export const gaveUp = (attemptsAfter: number, maxAttempts: number): boolean => attemptsAfter >= maxAttempts;

/** Rows created before this instant count in pendingOver24hAfterSweep. */
export const pendingCutoff = (at: Date): Date => new Date(at.getTime() - PENDING_ALARM_AGE_MS);

export interface Tally {
  embedded: number;
  chunks: number;
  failed: number;
  gave_up: number;
  skipped: number;
  removed: number;
}

export const emptyTally = (): Tally => ({ embedded: 0, chunks: 0, failed: 0, gave_up: 0, skipped: 0, removed: 0 });

/** What happened to one claimed source. */
export type SourceOutcome =
  | { kind: 'embedded'; chunks: number }
  | { kind: 'failed'; error: unknown; gaveUp: boolean }
  | { kind: 'skipped'; reason: 'not_ready' | 'changed' | 'out_of_time' }
  | { kind: 'removed' };

export const addOutcome = (tally: Tally, outcome: SourceOutcome): Tally => {
  switch (outcome.kind) {
    case 'embedded':
      return { ...tally, embedded: tally.embedded + 1, chunks: tally.chunks + outcome.chunks };
    case 'failed':
      return { ...tally, failed: tally.failed + 1, gave_up: tally.gave_up + (outcome.gaveUp ? 1 : 0) };
    case 'skipped':
      return { ...tally, skipped: tally.skipped + 1 };
    case 'removed':
      return { ...tally, removed: tally.removed + 1 };
  }
};

export const buildReport = (input: {
  tally: Tally;
  backlog: { pendingOlderThanCutoff: number; remaining: number; givenUp: number };
  maxAttempts: number;
  stoppedBy: StoppedBy;
  startedAt: Date;
  finishedAt: Date;
}): SweepReport => ({
  ...input.tally,
  remaining: input.backlog.remaining,
  errors_given_up: input.backlog.givenUp,
  pendingOver24hAfterSweep: input.backlog.pendingOlderThanCutoff,
  max_attempts: input.maxAttempts,
  stopped_by: input.stoppedBy,
  ...runTiming(input.startedAt, input.finishedAt),
});

// ---- the sweep -------------------------------------------------------------------------------

class OutOfTime extends Error {}

export const sweepEmbeddings = async (db: Kysely<Database>, options: SweepOptions): Promise<SweepReport> => {
  const now = options.now ?? (() => new Date());
  const maxAttempts = options.maxAttempts ?? SWEEP_DEFAULTS.maxAttempts;
  const batchLimit = options.batchLimit ?? SWEEP_DEFAULTS.batchLimit;
  const stopsSweep = options.stopsSweep ?? isSystemicFailure;
  const startedAt = now();
  const deadline = startedAt.getTime() + (options.timeBudgetMs ?? SWEEP_DEFAULTS.timeBudgetMs);
  const outOfTime = () => now().getTime() >= deadline;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  /** the chunk's embedding, waiting for room when the quota is full; OutOfTime when that room comes after the budget */
  const embedWhenThereIsRoom = async (text: string): Promise<number[]> => {
    for (;;) {
      try {
        return await options.embed(text);
      } catch (error) {
        const retryAt = quotaRetryAt(error);
        if (!retryAt) throw error;
        if (retryAt.getTime() >= deadline) throw new OutOfTime();
        await sleep(Math.max(0, retryAt.getTime() - now().getTime()));
      }
    }
  };

  const embedSource = async (source: ClaimedSource): Promise<SourceOutcome> => {
    const loaded = await loadSourceText(db, source);
    if (loaded.status === 'missing') {
      await removeSource(db, source);
      return { kind: 'removed' };
    }
    if (loaded.status === 'not_ready') {
      await releaseSource(db, source);
      return { kind: 'skipped', reason: 'not_ready' };
    }
    const fail = async (error: unknown): Promise<SourceOutcome> => {
      const attempts = await recordFailure(db, source, errorMessageOf(error));
      return attempts === undefined
        ? { kind: 'skipped', reason: 'changed' }
        : { kind: 'failed', error, gaveUp: gaveUp(attempts, maxAttempts) };
    };
    if (loaded.status === 'unreadable') return fail(new Error(loaded.message));

    const embedded: EmbeddedChunk[] = [];
    try {
      for (const chunk of chunkText(loaded.text, options.chunking)) {
        if (outOfTime()) throw new OutOfTime();
        const vector = await embedWhenThereIsRoom(chunk.text);
        embedded.push({
          index: chunk.index,
          text: chunk.text,
          tokenCount: chunk.tokenCount,
          embedding: toVectorLiteral(vector, EMBEDDING_DIMENSIONS),
        });
      }
    } catch (error) {
      if (!(error instanceof OutOfTime)) return fail(error);
      await releaseSource(db, source);
      return { kind: 'skipped', reason: 'out_of_time' };
    }
    const stored = await storeChunks(db, source, loaded, embedded);
    return stored ? { kind: 'embedded', chunks: embedded.length } : { kind: 'skipped', reason: 'changed' };
  };

  let tally = emptyTally();
  let stoppedBy: StoppedBy = 'done';
  const handled: string[] = [];
  for (;;) {
    if (handled.length >= batchLimit) {
      stoppedBy = 'batch_limit';
      break;
    }
    if (outOfTime()) {
      stoppedBy = 'time_budget';
      break;
    }
    const source = await claimNextSource(db, {
      maxAttempts,
      exclude: handled,
      ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
    });
    if (!source) break;
    handled.push(source.id);
    const outcome = await embedSource(source);
    tally = addOutcome(tally, outcome);
    if (outcome.kind === 'skipped' && outcome.reason === 'out_of_time') {
      stoppedBy = 'time_budget';
      break;
    }
    if (outcome.kind === 'failed' && stopsSweep(outcome.error)) {
      stoppedBy = 'ai_unavailable';
      break;
    }
  }

  const finishedAt = now();
  const backlog = await countBacklog(db, { cutoff: pendingCutoff(finishedAt), maxAttempts });
  return buildReport({ tally, backlog, maxAttempts, stoppedBy, startedAt, finishedAt });
};
