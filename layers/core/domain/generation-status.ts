/**
 * The analysis lifecycle (`generation_status`): SPEC "States and transitions" for complete → checking →
 * verified | complete | quality_unavailable, and DESIGN's states before complete (queued → generating →
 * complete, or failed; the user may retry). The code changes the status only through `guardedMove`
 * (create, generation, quality, watchdog, the lease): every write is `set to where status in (from)`,
 * and the machine decides which `from` and `to` exist.
 *
 * Redelivery and crashes — the one description (README, docs/operations.md and the analysis modules
 * point here). Queues deliver at least once, so a message may arrive twice and a worker may die mid-work:
 * - a worker claims its analysis by moving it into generating or checking with a lease (`claimed_until`,
 *   analysis/lease.ts) that it renews while it works, and keeps its message invisible one lease at a time;
 * - a second delivery while the lease is live does not run the work: its message comes back just after
 *   the lease could have run out (LeaseHeldError), and by then finds the work finished or takes it over;
 * - a crashed worker's lease runs out within about a minute; its returning message takes the row over
 *   (take_over: generating → generating, checking → checking) and runs the work again from the start;
 * - a retryable failure (a database blip, the organization's AI share in use) lets the lease go and the
 *   message returns later: a generation is handed back (generation_deferred: generating → queued), a
 *   check stays checking; any other failure is recorded (generation_failed, quality_failed, quality_shed);
 * - a message that finds its analysis elsewhere (finished, failed, gone) does nothing, except that a
 *   complete analysis never checked gets its checks queued (the first run's queueing failed);
 * - every write after the claim is conditional on the status the worker claimed, so two copies racing
 *   still leave one analysis in one state;
 * - the watchdog (analysis/watchdog.ts) is the backstop for rows whose messages cannot come back: it
 *   fails or releases rows with no sign of life (checking_stale, generation_failed), never one under a
 *   live lease.
 *
 * Decisions where the spec is silent:
 * - generation_failed from queued: a message that can never start (not queued, or expired in the queue)
 *   fails the analysis with an error message instead of leaving it queued.
 * - A failed quality check returns to complete even when the check was a re-check of a verified
 *   analysis: the spec's invariant is "complete or quality_unavailable after a failed check". The
 *   analysis itself is untouched ("quality never degrades"); a manual re-check is always possible.
 * - quality_shed from complete: the shedder refuses the automatic check before it starts, so the analysis
 *   ships without a quality score and rests in quality_unavailable (SPEC "Errors").
 * - checking_stale: a watchdog's way out of checking when a check crashed or timed out, so nothing is
 *   ever stuck on checking.
 * - A manual check whose message could not be queued is put back where it was (undoMove), not failed:
 *   nothing ran.
 *
 * Pure: no I/O, no clock, no environment.
 */
export const GENERATION_STATUSES = ['queued', 'generating', 'complete', 'failed', 'checking', 'verified', 'quality_unavailable'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const GENERATION_EVENTS = [
  'start_generation',
  'generation_succeeded',
  'generation_failed',
  'generation_deferred',
  'retry_generation',
  'start_quality',
  'quality_succeeded',
  'quality_failed',
  'quality_shed',
  'checking_stale',
  'take_over',
] as const;
export type GenerationEvent = (typeof GENERATION_EVENTS)[number];

export interface Transition {
  from: GenerationStatus;
  event: GenerationEvent;
  to: GenerationStatus;
  why: string;
}

/** Every allowed transition; anything not listed is illegal. Exported as documentation. */
export const TRANSITIONS: readonly Transition[] = [
  { from: 'queued', event: 'start_generation', to: 'generating', why: 'a worker picked up the generation message' },
  { from: 'generating', event: 'generation_succeeded', to: 'complete', why: 'analysis generated; quality checks start next' },
  { from: 'generating', event: 'generation_failed', to: 'failed', why: 'both regions degraded; the user may retry' },
  {
    from: 'queued',
    event: 'generation_failed',
    to: 'failed',
    why: 'the generation could never start (not queued, or expired in the queue)',
  },
  {
    from: 'generating',
    event: 'generation_deferred',
    to: 'queued',
    why: "a retryable fault, or the organization's AI share in use: handed back",
  },
  { from: 'generating', event: 'take_over', to: 'generating', why: 'redelivery: the lease of the worker generating it ran out' },
  { from: 'failed', event: 'retry_generation', to: 'queued', why: 'the user retries a failed generation' },
  { from: 'complete', event: 'start_quality', to: 'checking', why: 'automatic after generation, or a manual quality-check call' },
  { from: 'verified', event: 'start_quality', to: 'checking', why: 'manual re-check' },
  { from: 'quality_unavailable', event: 'start_quality', to: 'checking', why: 'manual re-check after the checks were shed' },
  { from: 'checking', event: 'quality_succeeded', to: 'verified', why: 'both checks succeeded; scores and confidence available' },
  { from: 'checking', event: 'quality_failed', to: 'complete', why: 'a check failed; the analysis stays usable' },
  { from: 'checking', event: 'quality_shed', to: 'quality_unavailable', why: 'quality calls shed; ships without a quality score' },
  { from: 'complete', event: 'quality_shed', to: 'quality_unavailable', why: 'the automatic check was shed before it started' },
  { from: 'checking', event: 'checking_stale', to: 'complete', why: 'watchdog: the check crashed or timed out' },
  { from: 'checking', event: 'take_over', to: 'checking', why: 'redelivery after a crash, or a manual start: no live lease on the check' },
];

/** Every analysis starts queued (the column's default too; test/db/vocabulary.test.ts holds them together). */
export const INITIAL_STATUS = 'queued' satisfies GenerationStatus;

const NEXT = new Map<string, GenerationStatus>(TRANSITIONS.map((t) => [`${t.from}|${t.event}`, t.to]));

export class IllegalTransitionError extends Error {
  override name = 'IllegalTransitionError';
  constructor(
    readonly from: string,
    readonly event: string,
  ) {
    super(`analysis cannot go through '${event}' while '${from}'`);
  }
}

export const isGenerationStatus = (value: unknown): value is GenerationStatus =>
  typeof value === 'string' && (GENERATION_STATUSES as readonly string[]).includes(value);

export const canTransition = (from: GenerationStatus, event: GenerationEvent): boolean => NEXT.has(`${from}|${event}`);

/** The next status, or IllegalTransitionError (also for a status or event this module does not know). */
export const transition = (from: GenerationStatus, event: GenerationEvent): GenerationStatus => {
  const to = NEXT.get(`${from}|${event}`);
  if (to === undefined) throw new IllegalTransitionError(from, event);
  return to;
};

/**
 * A change of status as the code writes it: a conditional update `set generation_status = to where
 * generation_status in (from)`. The guard is what keeps racing workers, the watchdog and the routes
 * from overwriting each other; the machine is what decides which guards and targets exist.
 */
export interface Move {
  readonly from: readonly GenerationStatus[];
  readonly to: GenerationStatus;
}

/**
 * The move `event` makes from `from` (by default every status the machine lets it leave): throws
 * IllegalTransitionError when one of them cannot go through it, or when they would not land in one status.
 */
export const guardedMove = (
  event: GenerationEvent,
  from: readonly GenerationStatus[] = TRANSITIONS.filter((t) => t.event === event).map((t) => t.from),
): Move => {
  const targets = new Set(from.map((status) => transition(status, event)));
  const [to] = targets;
  if (to === undefined || targets.size > 1) throw new IllegalTransitionError(from.join(' | ') || '(nothing)', event);
  return { from, to };
};

/**
 * Takes back a move that had no effect outside the database (its message could not be queued): from
 * the move's target to `previous`, which must be one of the statuses it left.
 */
export const undoMove = (move: Move, previous: GenerationStatus): Move => {
  if (!move.from.includes(previous)) throw new IllegalTransitionError(move.to, `undo to '${previous}'`);
  return { from: [move.to], to: previous };
};

/** Work is pending (clients keep polling; a watchdog may look for these): queued, generating, checking. */
export const IN_FLIGHT_STATUSES = ['queued', 'generating', 'checking'] as const satisfies readonly GenerationStatus[];
export const isInFlight = (status: GenerationStatus): boolean => (IN_FLIGHT_STATUSES as readonly GenerationStatus[]).includes(status);

/**
 * A resting state: nothing is running and nothing happens without a new request (polling can stop).
 * Not final: failed can be retried and the rest can be re-checked.
 */
export const isTerminal = (status: GenerationStatus): boolean => isGenerationStatus(status) && !isInFlight(status);

/** The analysis content exists and is usable (readable, judgeable): complete and every later state. */
const GENERATED_STATUSES: readonly GenerationStatus[] = ['complete', 'checking', 'verified', 'quality_unavailable'];
export const isGenerated = (status: GenerationStatus): boolean => GENERATED_STATUSES.includes(status);
