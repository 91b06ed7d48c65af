/**
 * The analysis watchdog: the limits derived from the retry schedule and the workers' timeouts, the pure
 * staleness rule at simulated times (from a row's last sign of life: its entry, its lease, its wait for AI
 * capacity), and a run on the real database that releases a row stuck in checking (complete,
 * quality_error, [QUALITY_CHECK_FAILURE]) and fails stale generating and queued rows, leaving fresh,
 * leased, waiting and resting rows alone.
 */
import { retryScheduleMs, runWatchdog, staleAction, WATCHDOG_LIMITS, WATCHDOG_MESSAGES } from '#core/analysis/watchdog';
import type { GenerationStatus } from '#core/db/schema';
import { logger } from '#core/logger';
import { useTestDatabase } from '../support/db';

const NOW = new Date('2025-03-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;

describe('limits and staleAction (pure)', () => {
  test('limits follow the retry schedule and the manifest: after the last sign of life, checking 4 min 40 s, generating 7 min 10 s; queued 2 h', () => {
    expect(retryScheduleMs(3)).toBe(70_000); // 10 + 20 + 40 s
    // retry schedule + the worker's timeout (a busy queue frees a worker within it) + a minute of latency
    expect(WATCHDOG_LIMITS).toEqual({
      checkingMs: 70_000 + 150_000 + MINUTE,
      generatingMs: 70_000 + 300_000 + MINUTE,
      queuedMs: 120 * MINUTE,
    });
  });

  test('the last sign of life is the latest of entry, lease and wait for AI capacity', () => {
    const row = { generation_status: 'generating' as const, updated_at: ago(30 * MINUTE) };
    expect(staleAction(row, NOW)).toBe('fail_generating');
    // a live lease: never failed under its worker
    expect(staleAction({ ...row, claimed_until: new Date(NOW.getTime() + 30_000) }, NOW)).toBeUndefined();
    // a lease that ran out 5 minutes ago: its message may still come back
    expect(staleAction({ ...row, claimed_until: ago(5 * MINUTE) }, NOW)).toBeUndefined();
    expect(staleAction({ ...row, claimed_until: ago(8 * MINUTE) }, NOW)).toBe('fail_generating');
    // a check waiting for its organization's AI share until a minute from now
    expect(
      staleAction({ generation_status: 'checking', updated_at: ago(30 * MINUTE), ai_wait_until: new Date(NOW.getTime() + MINUTE) }, NOW),
    ).toBeUndefined();
  });

  test.each<[GenerationStatus, number, string | undefined]>([
    ['checking', WATCHDOG_LIMITS.checkingMs, undefined],
    ['checking', WATCHDOG_LIMITS.checkingMs + 1, 'release_checking'],
    ['generating', WATCHDOG_LIMITS.generatingMs, undefined],
    ['generating', WATCHDOG_LIMITS.generatingMs + 1, 'fail_generating'],
    ['queued', 119 * MINUTE, undefined],
    ['queued', 121 * MINUTE, 'fail_queued'],
    ['complete', 1000 * MINUTE, undefined],
    ['verified', 1000 * MINUTE, undefined],
    ['failed', 1000 * MINUTE, undefined],
    ['quality_unavailable', 1000 * MINUTE, undefined],
  ])('%s for %d ms → %s', (status, age, action) => {
    expect(staleAction({ generation_status: status, updated_at: ago(age) }, NOW)).toBe(action);
  });
});

describe('runWatchdog on the database', () => {
  const db = useTestDatabase();
  let investigation = '';

  beforeAll(async () => {
    const org = (await db.insertInto('organizations').values({ name: 'Watchdog Org' }).returning('id').executeTakeFirstOrThrow()).id;
    investigation = (
      await db.insertInto('investigations').values({ organization_id: org, title: 'Stuck' }).returning('id').executeTakeFirstOrThrow()
    ).id;
  });

  const analysis = async (status: GenerationStatus, updatedAt: Date, more: { claimed_until?: Date; ai_wait_until?: Date } = {}) =>
    (
      await db
        .insertInto('analyses')
        .values({
          investigation_id: investigation,
          analysis_type: 'summary',
          generation_status: status,
          updated_at: updatedAt,
          ...more,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const status = (id: string) =>
    db
      .selectFrom('analyses')
      .select(['generation_status', 'quality_error', 'error_message'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  test('releases stale checking, fails stale generating and queued; fresh and resting rows untouched', async () => {
    const error = jest.spyOn(logger, 'error');
    try {
      const stuckChecking = await analysis('checking', ago(11 * MINUTE));
      const freshChecking = await analysis('checking', ago(2 * MINUTE));
      const waitingChecking = await analysis('checking', ago(30 * MINUTE), { ai_wait_until: ago(MINUTE) });
      const stuckGenerating = await analysis('generating', ago(30 * MINUTE), { claimed_until: ago(29 * MINUTE) });
      const freshGenerating = await analysis('generating', ago(4 * MINUTE));
      const leasedGenerating = await analysis('generating', ago(30 * MINUTE), { claimed_until: new Date(NOW.getTime() + 20_000) });
      const stuckQueued = await analysis('queued', ago(3 * 60 * MINUTE));
      const freshQueued = await analysis('queued', ago(30 * MINUTE));
      const old = await analysis('complete', ago(1000 * MINUTE));

      expect(await runWatchdog(db, { now: NOW })).toEqual({ checking_released: 1, generating_failed: 1, queued_failed: 1 });

      expect(await status(stuckChecking)).toMatchObject({ generation_status: 'complete', quality_error: WATCHDOG_MESSAGES.checking });
      expect(error).toHaveBeenCalledWith('[QUALITY_CHECK_FAILURE]', expect.objectContaining({ analysisId: stuckChecking }));
      expect(await status(stuckGenerating)).toMatchObject({
        generation_status: 'failed',
        error_message: expect.stringMatching(/try again/i),
      });
      expect(await status(stuckQueued)).toMatchObject({ generation_status: 'failed', error_message: expect.stringMatching(/try again/i) });
      for (const [id, s] of [
        [freshChecking, 'checking'],
        [waitingChecking, 'checking'],
        [freshGenerating, 'generating'],
        [leasedGenerating, 'generating'],
        [freshQueued, 'queued'],
        [old, 'complete'],
      ] as const) {
        expect((await status(id)).generation_status).toBe(s);
      }

      // a second run finds nothing more
      expect(await runWatchdog(db, { now: NOW })).toEqual({ checking_released: 0, generating_failed: 0, queued_failed: 0 });
    } finally {
      error.mockRestore();
    }
  });
});
