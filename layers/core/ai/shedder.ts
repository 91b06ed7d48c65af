/**
 * The throttle shedder. Every throttle is a row in the AI call ledger (ai_calls, outcome 'throttled'),
 * and so is every attempt that ran past its attempt timeout (outcome 'timed_out': a region that hangs
 * is as short of capacity as one that throttles, and costs far more time per attempt); the ledger is
 * shared by every Lambda instance. More than SHEDDER_TRIP_ABOVE of them in the last
 * SHEDDER_WINDOW_MS (sliding, across all regions) make it hot, and while it is hot quality-check calls
 * are refused before they start (QualityShedError, `[AI:Shed]`) so the model capacity left goes to
 * primary analyses, which are never shed. A configuration flag switches it off.
 *
 * Time is passed in (`now`), never read here, so tests can move the window.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { config, ENV } from '#core/config';
import { DomainError } from '#core/errors';
import type { AiPurpose, Database } from '#core/db/schema';
import { logger } from '#core/logger';
import { countEvent } from '#core/metrics';
import { recordCall } from './ledger';

const SHEDDER_WINDOW_MS = 60_000;
/** Trips when MORE than this many throttles are in the window (i.e. at 4). */
const SHEDDER_TRIP_ABOVE = 3;

/** AI_SHEDDER_DISABLED: 'true' or '1' switches the shedder off. */
export const shedderDisabled = (): boolean => config()[ENV.aiShedderDisabled];

/**
 * Which calls may be shed. 'quality' is what the spec names. 'judge' (LLM-as-judge scoring of the
 * developer evaluation tool) is shed too: like a quality check it is secondary, optional (the tool has
 * an offline mode) and retryable later, and it must not take capacity from primary analyses while the
 * regions are throttling. 'analysis' (primary) is never shed, and neither is 'embedding', which feeds
 * the retrieval of primary analyses.
 */
const SHEDDABLE_PURPOSES: ReadonlySet<AiPurpose> = new Set<AiPurpose>(['quality', 'judge']);

export interface ShedderStatus {
  hot: boolean;
  recentThrottles: number;
  fallbackRegion: string;
  disabled: boolean;
}

// ---- Pure rules -------------------------------------------------------------------------------

export const isHot = (recentThrottles: number): boolean => recentThrottles > SHEDDER_TRIP_ABOVE;

/** Whether a call of `purpose` is refused, given the throttle count in the window. */
export const shouldShed = (purpose: AiPurpose, recentThrottles: number, disabled: boolean): boolean =>
  !disabled && SHEDDABLE_PURPOSES.has(purpose) && isHot(recentThrottles);

/** A quality call refused before it started because the shedder is hot. */
export class QualityShedError extends DomainError {
  override name = 'QualityShedError';
  constructor(
    readonly recentThrottles: number,
    readonly purpose: AiPurpose = 'quality',
  ) {
    super(
      'unavailable',
      'ai_shed',
      `${purpose} call shed: ${recentThrottles} model throttles in the last ${SHEDDER_WINDOW_MS / 1000} s; ` +
        'the analysis ships without a quality score, and the check can be run again later',
    );
  }
}

// ---- Database edge ----------------------------------------------------------------------------

export interface ThrottleRecord {
  region: string;
  purpose: AiPurpose;
  modelId: string;
  at: Date;
  errorName: string;
  userId?: string | undefined;
  analysisId?: string | undefined;
}

/** One throttle: `[AI:Throttle]` in the log and a 'throttled' ledger row, which is what the shedder counts. */
export const recordThrottle = async (db: Kysely<Database>, t: ThrottleRecord): Promise<void> => {
  // Logged first so the marker is there even if the ledger write fails.
  logger.warn('[AI:Throttle]', {
    region: t.region,
    purpose: t.purpose,
    modelId: t.modelId,
    errorName: t.errorName,
    analysisId: t.analysisId,
  });
  countEvent('aiThrottles', t.region);
  await recordCall(db, { ...t, outcome: 'throttled' });
};

export interface TimeoutRecord extends ThrottleRecord {
  latencyMs: number;
  timeoutMs: number;
}

/** One attempt past its timeout: `[AI:Timeout]` in the log and a 'timed_out' ledger row, which the shedder counts too. */
export const recordTimeout = async (db: Kysely<Database>, t: TimeoutRecord): Promise<void> => {
  logger.warn('[AI:Timeout]', {
    region: t.region,
    purpose: t.purpose,
    modelId: t.modelId,
    errorName: t.errorName,
    timeoutMs: t.timeoutMs,
    latencyMs: Math.round(t.latencyMs),
    analysisId: t.analysisId,
  });
  countEvent('aiTimeouts', t.region);
  const { timeoutMs: _timeoutMs, ...entry } = t;
  await recordCall(db, { ...entry, outcome: 'timed_out' });
};

/** Ledger outcomes the shedder counts: throttles and timed-out attempts. */
const SHEDDER_OUTCOMES = ['throttled', 'timed_out'] as const;

/** Throttles and timeouts (all regions) with created_at in (now − window, now]; one count over ai_calls_outcome_idx. */
const countRecentThrottles = async (db: Kysely<Database>, now: Date): Promise<number> => {
  const row = await db
    .selectFrom('ai_calls')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('outcome', 'in', SHEDDER_OUTCOMES)
    .where('created_at', '>', new Date(now.getTime() - SHEDDER_WINDOW_MS))
    .where('created_at', '<=', now)
    .executeTakeFirstOrThrow();
  return row.n;
};

/** The `shedder` object of the queue statistics. Disabled: never hot, but the count is still reported. */
export const shedderStatus = async (
  db: Kysely<Database>,
  { now, disabled, fallbackRegion }: { now: Date; disabled: boolean; fallbackRegion: string },
): Promise<ShedderStatus> => {
  const recentThrottles = await countRecentThrottles(db, now);
  return { hot: !disabled && isHot(recentThrottles), recentThrottles, fallbackRegion, disabled };
};

export interface GuardOptions {
  purpose: AiPurpose;
  now: Date;
  disabled: boolean;
  /** the primary region: where the shed call would have gone (the ledger row's region) */
  region: string;
  modelId: string;
  userId?: string | undefined;
  analysisId?: string | undefined;
}

/**
 * Called before a model call starts. Sheddable calls while hot: ledger row 'shed', `[AI:Shed]`, and
 * QualityShedError. Anything else returns at once (never-shed purposes skip the query).
 */
export const guardAgainstShedding = async (db: Kysely<Database>, o: GuardOptions): Promise<void> => {
  if (o.disabled || !SHEDDABLE_PURPOSES.has(o.purpose)) return;
  const recentThrottles = await countRecentThrottles(db, o.now);
  if (!shouldShed(o.purpose, recentThrottles, o.disabled)) return;
  const error = new QualityShedError(recentThrottles, o.purpose);
  logger.warn('[AI:Shed]', { purpose: o.purpose, region: o.region, modelId: o.modelId, recentThrottles, analysisId: o.analysisId });
  countEvent('aiSheds', o.region);
  await recordCall(db, {
    purpose: o.purpose,
    region: o.region,
    modelId: o.modelId,
    outcome: 'shed',
    errorName: error.name,
    userId: o.userId,
    analysisId: o.analysisId,
    at: o.now,
  });
  throw error;
};
