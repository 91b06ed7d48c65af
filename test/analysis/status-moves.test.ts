import { NOT_QUEUED } from '#core/analysis/create';
import { GENERATION_MOVES } from '#core/analysis/generation';
import { QUALITY_MOVES } from '#core/analysis/quality';
import { WATCHDOG_MOVES } from '#core/analysis/watchdog';
import { TRANSITIONS, undoMove, type Move } from '#core/domain/generation-status';

/** Every change of generation_status the code writes, by who writes it (the lease's take-over is checked inside claimLease). */
const written: Record<string, Move> = {
  'create: not queued': NOT_QUEUED,
  ...Object.fromEntries(Object.entries(GENERATION_MOVES).map(([name, move]) => [`generation: ${name}`, move])),
  ...Object.fromEntries(Object.entries(QUALITY_MOVES).map(([name, move]) => [`quality: ${name}`, move])),
  ...Object.fromEntries(Object.entries(WATCHDOG_MOVES).map(([name, move]) => [`watchdog: ${name}`, move])),
};
const allowed = new Set(TRANSITIONS.map((t) => `${t.from} -> ${t.to}`));

describe('every change of status the code writes is one the state machine allows', () => {
  test.each(Object.entries(written))('%s', (_, move) => {
    expect(move.from.length).toBeGreaterThan(0);
    for (const from of move.from) expect(allowed).toContain(`${from} -> ${move.to}`);
  });

  test('a manual check whose message could not be queued goes back only where it came from', () => {
    for (const previous of QUALITY_MOVES.start.from)
      expect(undoMove(QUALITY_MOVES.start, previous)).toEqual({ from: ['checking'], to: previous });
  });
});
