/**
 * The analysis lifecycle (`generation_status`): SPEC "States and transitions" for complete → checking →
 * verified | complete | quality_unavailable, and DESIGN's states before complete (queued → generating →
 * complete, or failed; the user may retry).
 *
 * Decisions where the spec is silent:
 * - start_generation from generating is allowed (stays generating). Queues deliver at least once: when
 *   a worker dies mid-generation the message comes back after the visibility timeout and must be able to
 *   pick the analysis up again, or it would sit in generating for ever. Claiming the work exclusively is
 *   the repository's job (conditional update), not this table's.
 * - generation_failed from queued: a message that can never start (dead-lettered, invalid) fails the
 *   analysis with an error message instead of leaving it queued.
 * - A failed quality check returns to complete even when the check was a re-check of a verified
 *   analysis: the spec's invariant is "complete or quality_unavailable after a failed check". The
 *   analysis itself is untouched ("quality never degrades"); a manual re-check is always possible.
 * - quality_shed from complete: the shedder refuses the automatic check before it starts, so the analysis
 *   ships without a quality score and rests in quality_unavailable (SPEC "Errors").
 * - checking_stale: a watchdog's way out of checking when a check crashed or timed out, so nothing is
 *   ever stuck on checking.
 *
 * Pure: no I/O, no clock, no environment.
 */
export const GENERATION_STATUSES = [
  'queued', 'generating', 'complete', 'failed', 'checking', 'verified', 'quality_unavailable',
] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const GENERATION_EVENTS = [
  'start_generation', 'generation_succeeded', 'generation_failed', 'retry_generation',
  'start_quality', 'quality_succeeded', 'quality_failed', 'quality_shed', 'checking_stale',
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
  { from: 'generating', event: 'start_generation', to: 'generating', why: 'redelivery after a worker died mid-generation' },
  { from: 'generating', event: 'generation_succeeded', to: 'complete', why: 'analysis generated; quality checks start next' },
  { from: 'generating', event: 'generation_failed', to: 'failed', why: 'both regions degraded; the user may retry' },
  { from: 'queued', event: 'generation_failed', to: 'failed', why: 'the generation could never start (dead-lettered)' },
  { from: 'failed', event: 'retry_generation', to: 'queued', why: 'the user retries a failed generation' },
  { from: 'complete', event: 'start_quality', to: 'checking', why: 'automatic after generation, or a manual quality-check call' },
  { from: 'verified', event: 'start_quality', to: 'checking', why: 'manual re-check' },
  { from: 'quality_unavailable', event: 'start_quality', to: 'checking', why: 'manual re-check after the checks were shed' },
  { from: 'checking', event: 'quality_succeeded', to: 'verified', why: 'both checks succeeded; scores and confidence available' },
  { from: 'checking', event: 'quality_failed', to: 'complete', why: 'a check failed; the analysis stays usable' },
  { from: 'checking', event: 'quality_shed', to: 'quality_unavailable', why: 'quality calls shed; ships without a quality score' },
  { from: 'complete', event: 'quality_shed', to: 'quality_unavailable', why: 'the automatic check was shed before it started' },
  { from: 'checking', event: 'checking_stale', to: 'complete', why: 'watchdog: the check crashed or timed out' },
];

const NEXT = new Map<string, GenerationStatus>(TRANSITIONS.map((t) => [`${t.from}|${t.event}`, t.to]));

export class IllegalTransitionError extends Error {
  override name = 'IllegalTransitionError';
  constructor(readonly from: string, readonly event: string) {
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

/** Work is pending (clients keep polling; a watchdog may look for these): queued, generating, checking. */
export const IN_FLIGHT_STATUSES: ReadonlySet<GenerationStatus> = new Set<GenerationStatus>(['queued', 'generating', 'checking']);
export const isInFlight = (status: GenerationStatus): boolean => IN_FLIGHT_STATUSES.has(status);

/**
 * A resting state: nothing is running and nothing happens without a new request (polling can stop).
 * Not final: failed can be retried and the rest can be re-checked.
 */
export const isTerminal = (status: GenerationStatus): boolean => isGenerationStatus(status) && !isInFlight(status);

/** The analysis content exists and is usable (readable, judgeable): complete and every later state. */
export const GENERATED_STATUSES: ReadonlySet<GenerationStatus> = new Set<GenerationStatus>(['complete', 'checking', 'verified', 'quality_unavailable']);
export const isGenerated = (status: GenerationStatus): boolean => GENERATED_STATUSES.has(status);
