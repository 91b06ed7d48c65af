import fc from 'fast-check';
import type { GenerationStatus as SchemaStatus } from '#core/db/schema';
import {
  canTransition,
  GENERATION_EVENTS,
  GENERATION_STATUSES,
  guardedMove,
  IllegalTransitionError,
  INITIAL_STATUS,
  isGenerated,
  isGenerationStatus,
  isInFlight,
  isTerminal,
  transition,
  TRANSITIONS,
  undoMove,
  type GenerationEvent,
  type GenerationStatus,
} from '#core/domain/generation-status';

// Compile-time: the list covers every status the database allows.
const _covers: SchemaStatus extends (typeof GENERATION_STATUSES)[number] ? true : never = true;

const QUALITY_ENDINGS: ReadonlySet<GenerationEvent> = new Set(['quality_failed', 'quality_shed', 'checking_stale']);
const key = (from: string, event: string) => `${from}|${event}`;
const allowed = new Set(TRANSITIONS.map((t) => key(t.from, t.event)));
const statusArb = fc.constantFrom(...GENERATION_STATUSES);
const eventArb = fc.constantFrom(...GENERATION_EVENTS);

describe('allowed transitions', () => {
  test('the table has one row per (status, event)', () => {
    expect(allowed.size).toBe(TRANSITIONS.length);
  });

  test.each(TRANSITIONS.map((t) => [t.from, t.event, t.to] as const))('%s --%s--> %s', (from, event, to) => {
    expect(canTransition(from, event)).toBe(true);
    expect(transition(from, event)).toBe(to);
  });

  test('the lifecycle the spec and design describe', () => {
    expect(transition('queued', 'start_generation')).toBe('generating');
    expect(transition('generating', 'take_over')).toBe('generating');
    expect(transition('checking', 'take_over')).toBe('checking');
    expect(transition('generating', 'generation_deferred')).toBe('queued');
    expect(transition('generating', 'generation_succeeded')).toBe('complete');
    expect(transition('generating', 'generation_failed')).toBe('failed');
    expect(transition('queued', 'generation_failed')).toBe('failed');
    expect(transition('failed', 'retry_generation')).toBe('queued');
    for (const from of ['complete', 'verified', 'quality_unavailable'] as const) expect(transition(from, 'start_quality')).toBe('checking');
    expect(transition('checking', 'quality_succeeded')).toBe('verified');
    expect(transition('checking', 'quality_failed')).toBe('complete');
    expect(transition('checking', 'quality_shed')).toBe('quality_unavailable');
    expect(transition('complete', 'quality_shed')).toBe('quality_unavailable');
    expect(transition('checking', 'checking_stale')).toBe('complete');
  });
});

describe('illegal transitions', () => {
  const illegal = GENERATION_STATUSES.flatMap((from) => GENERATION_EVENTS.map((event) => [from, event] as const)).filter(
    ([from, event]) => !allowed.has(key(from, event)),
  );

  test('there are 77 pairs, 16 allowed', () => {
    expect(illegal.length + allowed.size).toBe(GENERATION_STATUSES.length * GENERATION_EVENTS.length);
    expect(allowed.size).toBe(16);
  });

  test.each(illegal)('%s --%s--> throws', (from, event) => {
    expect(canTransition(from, event)).toBe(false);
    const error = (() => {
      try {
        transition(from, event);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect(error).toMatchObject({ name: 'IllegalTransitionError', from, event });
  });

  test('an unknown status or event is illegal too', () => {
    expect(() => transition('archived' as GenerationStatus, 'start_quality')).toThrow(IllegalTransitionError);
    expect(() => transition('complete', 'explode' as GenerationEvent)).toThrow(IllegalTransitionError);
    expect(canTransition('archived' as GenerationStatus, 'start_quality')).toBe(false);
  });
});

describe('helpers', () => {
  test('in flight: queued, generating, checking; the rest are resting states', () => {
    expect(GENERATION_STATUSES.filter(isInFlight)).toEqual(['queued', 'generating', 'checking']);
    expect(GENERATION_STATUSES.filter(isTerminal)).toEqual(['complete', 'failed', 'verified', 'quality_unavailable']);
    expect(GENERATION_STATUSES.filter(isGenerated)).toEqual(['complete', 'checking', 'verified', 'quality_unavailable']);
    expect([...GENERATION_STATUSES, 'archived', 42, null].filter(isGenerationStatus)).toEqual([...GENERATION_STATUSES]);
  });

  test('every in-flight status has a way out that needs no success (nothing is ever stuck)', () => {
    const failureEvents: GenerationEvent[] = ['generation_failed', 'quality_failed', 'quality_shed', 'checking_stale'];
    for (const status of GENERATION_STATUSES.filter(isInFlight)) {
      const exits = failureEvents.filter((e) => canTransition(status, e)).map((e) => transition(status, e));
      expect(exits.some(isTerminal)).toBe(true);
    }
  });
});

describe('guarded moves (what a conditional update may write)', () => {
  test('by default an event leaves every status the machine lets it leave, into its one target', () => {
    expect(guardedMove('start_quality')).toEqual({ from: ['complete', 'verified', 'quality_unavailable'], to: 'checking' });
    expect(guardedMove('start_generation')).toEqual({ from: [INITIAL_STATUS], to: 'generating' });
    expect(guardedMove('generation_failed', ['generating'])).toEqual({ from: ['generating'], to: 'failed' });
    expect(guardedMove('take_over', ['checking'])).toEqual({ from: ['checking'], to: 'checking' });
  });

  test('an illegal source, no source, or sources that would land apart throw', () => {
    expect(() => guardedMove('start_quality', ['checking'])).toThrow(IllegalTransitionError);
    expect(() => guardedMove('quality_failed', ['complete', 'checking'])).toThrow(IllegalTransitionError);
    expect(() => guardedMove('take_over', [])).toThrow(IllegalTransitionError);
    expect(() => guardedMove('take_over')).toThrow(IllegalTransitionError); // generating and checking stay apart
  });

  test('an undo goes back from the target to one of the statuses the move left, and nowhere else', () => {
    const start = guardedMove('start_quality');
    expect(undoMove(start, 'verified')).toEqual({ from: ['checking'], to: 'verified' });
    expect(() => undoMove(start, 'failed')).toThrow(IllegalTransitionError);
  });
});

describe('properties', () => {
  test(
    'any sequence of events stays inside the status set; illegal events throw and change nothing; ' +
      'a failing quality event always lands on complete or quality_unavailable',
    () => {
      fc.assert(
        fc.property(statusArb, fc.array(eventArb, { maxLength: 40 }), (start, events) => {
          let status: GenerationStatus = start;
          for (const event of events) {
            if (!canTransition(status, event)) {
              expect(() => transition(status, event)).toThrow(IllegalTransitionError);
              continue;
            }
            status = transition(status, event);
            expect(GENERATION_STATUSES).toContain(status);
            if (QUALITY_ENDINGS.has(event)) expect(['complete', 'quality_unavailable']).toContain(status);
          }
        }),
      );
    },
  );

  test('only legal events, from the start of life: the walk never leaves the set and checking always has an exit', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), (choices) => {
        let status: GenerationStatus = 'queued';
        for (const choice of choices) {
          const legal = GENERATION_EVENTS.filter((e) => canTransition(status, e));
          expect(legal.length).toBeGreaterThan(0);
          const event = legal[choice % legal.length]!;
          status = transition(status, event);
          expect(isGenerationStatus(status)).toBe(true);
          if (QUALITY_ENDINGS.has(event)) expect(['complete', 'quality_unavailable']).toContain(status);
          if (status === 'checking') expect(canTransition(status, 'checking_stale')).toBe(true);
        }
      }),
    );
  });
});
