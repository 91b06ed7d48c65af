/**
 * How long one Bedrock attempt may take before the gateway gives up on it and moves to the other region.
 *
 * Without a bound, a region that answers after 90 s held a generation for 362 s and the fallback region was
 * never tried (issue 14). An attempt that times out is not retried in its region: the gateway goes to the
 * fallback region at once, so a call takes at most one primary attempt plus one fallback attempt that time
 * out (2 × the timeout, plus quota waits), and that has to fit in the calling function's own limit
 * (manifest/service.ts) with room for its database work:
 *
 * | purpose   | attempt | worst case per function run                     | function (timeout)           |
 * |-----------|---------|-------------------------------------------------|------------------------------|
 * | analysis  | 80 s    | embed 2 × 10 s + converse 2 × 80 s = 180 s       | generation-worker (300 s)    |
 * | quality   | 25 s    | 2 checks in turn × 2 × 25 s = 100 s              | quality-worker (150 s)       |
 * | embedding | 10 s    | 2 × 10 s = 20 s past the 240 s sweep budget      | embedding-sweeper (300 s)    |
 * | judge     | 60 s    | 2 × 60 s per judged analysis                      | eval CLI (no function limit) |
 *
 * The analysis bound is the trade-off: a full 4,096-token Sonnet answer takes about a minute at typical
 * output rates, so a much shorter bound would throw healthy answers away (and pay for them twice), while a
 * primary that answers after 90 s must lose to the fallback. 80 s does both and leaves 120 s of the
 * worker's 300 s for the database work, quota waits and the lease. It can go up to about 130 s before
 * 2 × analysis + 2 × embedding stop fitting. Embedding requests (96 short texts) and Haiku scoring answer in seconds.
 *
 * Besides, each call may wait for its quota slot: 10 s, and a follow-up call (the analysis after its query's
 * embedding, the coverage check after the faithfulness check) FOLLOW_UP_QUOTA_MAX_WAIT_MS, so the generation worker's
 * run is at most 180 + 10 + 20 = 210 s and the quality worker's 100 + 10 + 20 = 130 s.
 *
 * Override (CDK context `aiAttemptTimeoutMs` → AI_ATTEMPT_TIMEOUT_MS): one number of milliseconds for
 * every purpose (`2000`), or per purpose (`analysis=60000,embedding=5000`); purposes not named keep
 * their default.
 */
import type { AiPurpose } from '#core/db/schema';
import { DomainError } from '#core/errors';

export type AttemptTimeouts = Record<AiPurpose, number>;

export const ATTEMPT_TIMEOUT_DEFAULTS_MS: Readonly<AttemptTimeouts> = {
  analysis: 80_000,
  quality: 25_000,
  judge: 60_000,
  embedding: 10_000,
};

/** a follow-up call's longest wait for its quota slot (ai/gateway.ts): about a third of the quota's window */
export const FOLLOW_UP_QUOTA_MAX_WAIT_MS = 20_000;

const PURPOSES = Object.keys(ATTEMPT_TIMEOUT_DEFAULTS_MS) as AiPurpose[];

const milliseconds = (raw: string, what: string): number => {
  const value = Number(raw.trim());
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${what} must be a whole number of milliseconds of at least 1, got '${raw}'`);
  }
  return value;
};

/** The per-purpose attempt timeouts: the defaults, with the override (if any) applied. Throws on a malformed value. */
export const parseAttemptTimeouts = (raw: string | undefined): AttemptTimeouts => {
  const timeouts = { ...ATTEMPT_TIMEOUT_DEFAULTS_MS };
  if (raw === undefined || raw.trim() === '') return timeouts;
  if (!raw.includes('=')) {
    const all = milliseconds(raw, 'aiAttemptTimeoutMs');
    for (const purpose of PURPOSES) timeouts[purpose] = all;
    return timeouts;
  }
  for (const pair of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [purpose, value, ...rest] = pair.split('=');
    if (!PURPOSES.includes(purpose?.trim() as AiPurpose) || value === undefined || rest.length > 0) {
      throw new Error(
        `aiAttemptTimeoutMs is a number of milliseconds, or purpose=milliseconds pairs (${PURPOSES.join(', ')}), got '${raw}'`,
      );
    }
    timeouts[purpose!.trim() as AiPurpose] = milliseconds(value, `aiAttemptTimeoutMs ${purpose!.trim()}`);
  }
  return timeouts;
};

/**
 * A streamed answer (ConverseStream) is bounded twice more inside its attempt, so that a region that is slow, not
 * down, is left in seconds rather than after the whole attempt timeout: its first token must come within
 * FIRST_TOKEN_TIMEOUT_MS (a hung region sends none; a healthy Sonnet's first token comes within a few seconds even
 * for a long prompt), and no part of it may be followed by silence longer than STREAM_IDLE_TIMEOUT_MS (a stream that
 * stalls). The attempt timeout above still bounds the whole answer (a full 4,096-token answer streams for about a
 * minute). Each is capped by the attempt timeout, so a stage that shortens that (aiAttemptTimeoutMs) shortens these.
 * With a primary answering after 90 s, an analysis is complete after the query embedding's 10 s and the analysis's
 * 20 s, and verified after the two checks' 10 s each, plus the fallback's answers (test/resilience/regions.e2e.test.ts).
 */
export const FIRST_TOKEN_TIMEOUT_MS: Readonly<Record<Exclude<AiPurpose, 'embedding'>, number>> = {
  analysis: 20_000,
  quality: 10_000,
  judge: 20_000,
};
export const STREAM_IDLE_TIMEOUT_MS = 10_000;

/** Which bound an attempt ran past: the whole attempt's, its first token's, or the silence between two parts of its answer. */
export type AttemptBound = 'attempt' | 'first_token' | 'idle';

/** The bounds of one attempt: `attemptMs` always; a streamed attempt also its first token's and its silences'. */
export interface AttemptBounds {
  attemptMs: number;
  firstTokenMs?: number;
  idleMs?: number;
}

/** The bounds of one streamed attempt of `purpose` under an attempt timeout of `attemptMs`. */
export const streamBounds = (purpose: Exclude<AiPurpose, 'embedding'>, attemptMs: number): AttemptBounds => ({
  attemptMs,
  firstTokenMs: Math.min(FIRST_TOKEN_TIMEOUT_MS[purpose], attemptMs),
  idleMs: Math.min(STREAM_IDLE_TIMEOUT_MS, attemptMs),
});

const BOUND_TEXT: Record<AttemptBound, string> = {
  attempt: 'no answer within the attempt timeout',
  first_token: 'no first token within the first-token timeout',
  idle: 'the answer stopped for longer than the stream idle timeout',
};

/**
 * One attempt ran past a bound; the gateway aborted its request. Retryable in the other region. The name says which
 * bound (the ledger's error_name and the `[AI:Timeout]` log line carry it).
 */
export class AiAttemptTimeoutError extends DomainError {
  override name: string = 'AiAttemptTimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly bound: AttemptBound = 'attempt',
  ) {
    super('unavailable', 'ai_attempt_timeout', `${BOUND_TEXT[bound]} of ${timeoutMs} ms; the request was aborted`);
    if (bound === 'first_token') this.name = 'AiFirstTokenTimeoutError';
    if (bound === 'idle') this.name = 'AiStreamIdleTimeoutError';
  }
}

/** Calls `fire` once `ms` have passed, unless the returned function cancels it first. */
export type AttemptTimer = (ms: number, fire: () => void) => () => void;

/** The real clock's. (Tests hand the gateway their own, to fire an attempt's timeout when they choose.) */
const realAttemptTimer: AttemptTimer = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

/** Tells the bound that the answer moved on (a streamed part arrived): the idle bound starts again. */
export type Progress = () => void;

/**
 * Runs one attempt with an AbortSignal that fires when a bound is passed (the SDK aborts the HTTP request and closes
 * its stream), and rejects with AiAttemptTimeoutError at that moment even if the attempt ignores the signal. One timer
 * is armed at a time, for the nearest bound: before the first `progress` the first token's (or the attempt's, if
 * nearer or if there is none), after each `progress` the idle bound's (or what is left of the attempt's). The timer
 * is cleared as soon as the attempt settles.
 */
export const withAttemptTimeout = async <T>(
  bounds: number | AttemptBounds,
  run: (signal: AbortSignal, progress: Progress) => Promise<T>,
  timer: AttemptTimer = realAttemptTimer,
): Promise<T> => {
  const { attemptMs, firstTokenMs, idleMs } = typeof bounds === 'number' ? { attemptMs: bounds } : bounds;
  const controller = new AbortController();
  const deadline = Date.now() + attemptMs;
  let cancel: () => void = () => undefined;
  let settled = false;
  let reject: (error: AiAttemptTimeoutError) => void = () => undefined;
  const timedOut = new Promise<never>((_, r) => (reject = r));
  /** arms the timer for the nearer of `phaseMs` (the phase's own bound) and what is left of the attempt (`left`) */
  const arm = (phase: Exclude<AttemptBound, 'attempt'>, phaseMs: number | undefined, left: number) => {
    cancel();
    const bound: AttemptBound = phaseMs !== undefined && phaseMs < left ? phase : 'attempt';
    cancel = timer(bound === 'attempt' ? left : phaseMs!, () => {
      const error = new AiAttemptTimeoutError(bound === 'attempt' ? attemptMs : phaseMs!, bound);
      controller.abort(error);
      reject(error);
    });
  };
  arm('first_token', firstTokenMs, attemptMs);
  const progress: Progress = () => {
    if (!settled && idleMs !== undefined) arm('idle', idleMs, Math.max(0, deadline - Date.now()));
  };
  const running = run(controller.signal, progress);
  running.catch(() => undefined); // its AbortError after a timeout is not news
  try {
    return await Promise.race([running, timedOut]);
  } catch (error) {
    // the SDK's own AbortError may settle the race first: report it as the timeout it is
    if (controller.signal.aborted && controller.signal.reason instanceof AiAttemptTimeoutError) throw controller.signal.reason;
    throw error;
  } finally {
    settled = true;
    cancel();
  }
};
