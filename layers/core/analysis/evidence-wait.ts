/**
 * An analysis requested while its investigation's evidence is still coming in — a file being extracted, chunks
 * waiting for their embeddings (ingestion/readiness.ts) — waits for it rather than being generated from part of the
 * evidence, or failing because nothing is embedded yet: the generation worker hands the analysis back to `queued`
 * with `waiting_for_evidence` ({ since, ready, total }, which the client polling it sees) and looks again
 * RECHECK_SECONDS later.
 *
 * The wait is bounded so that the analysis still reaches a terminal state inside the client's polling window (SPEC:
 * every 3 s for up to 5 minutes), whatever the AI does after it: once it has waited evidenceWaitMs since it was
 * requested, it is generated with what is embedded (retrieval searches that), or fails with the usual "nothing is
 * embedded" message when nothing is. The bound is the window less the generation's worst case (the query
 * embedding and the analysis, each a timed-out primary attempt and a fallback one: ai/timeouts.ts), one recheck and
 * a margin — 300 − (2 × 10 + 2 × 80) − 10 − 10 = 100 s with the default attempt timeouts; a stage that raises them
 * waits less.
 */
import type { AttemptTimeouts } from '#core/ai/timeouts';
import type { EvidenceWait } from '#core/db/schema';
import type { ItemCounts } from '#core/ingestion/readiness';

/** The client's polling window (SPEC: every 3 s for up to 5 minutes; web/src/poll.ts). */
export const CLIENT_POLL_WINDOW_MS = 5 * 60_000;

/** How often a waiting analysis looks again. */
export const RECHECK_SECONDS = 10;

const MARGIN_MS = 10_000;

/** Pure: how long after it was requested an analysis may wait for its evidence, given the stage's attempt timeouts. */
export const evidenceWaitMs = (timeouts: Pick<AttemptTimeouts, 'analysis' | 'embedding'>): number =>
  Math.max(0, CLIENT_POLL_WINDOW_MS - 2 * (timeouts.embedding + timeouts.analysis) - RECHECK_SECONDS * 1000 - MARGIN_MS);

/**
 * Pure: whether the analysis waits (and what it shows meanwhile), or is generated now: it waits while any item is
 * processing and it was requested less than `maxWaitMs` ago.
 */
export const evidenceWait = ({
  counts,
  requestedAt,
  waitingSince,
  now,
  maxWaitMs,
}: {
  counts: Pick<ItemCounts, 'total' | 'ready' | 'processing'>;
  requestedAt: Date;
  /** when it began waiting, if it already waits */
  waitingSince: string | undefined;
  now: Date;
  maxWaitMs: number;
}): EvidenceWait | null =>
  counts.processing > 0 && now.getTime() - requestedAt.getTime() < maxWaitMs
    ? { since: waitingSince ?? now.toISOString(), ready: counts.ready, total: counts.total }
    : null;

/** The analysis waits for its evidence: put back to queued, its message sent again to come back at `retryAt`. */
export class WaitingForEvidenceError extends Error {
  override name = 'WaitingForEvidenceError';
  readonly retryAt: Date;
  constructor(
    readonly wait: EvidenceWait,
    now: Date,
  ) {
    super(`waiting for the investigation's evidence to be processed (${wait.ready} of ${wait.total} items ready)`);
    this.retryAt = new Date(now.getTime() + RECHECK_SECONDS * 1000);
  }
}
