/**
 * The analysis watchdog: the pure staleness rule at simulated times, and a run on the real database
 * that releases a row stuck in checking (complete, quality_error, [QUALITY_CHECK_FAILURE]) and fails
 * stale generating and queued rows, leaving fresh and resting rows alone.
 */
import { runWatchdog, staleAction, WATCHDOG_LIMITS, WATCHDOG_MESSAGES } from '../../layers/core/analysis/watchdog';
import type { GenerationStatus } from '../../layers/core/db/schema';
import { logger } from '../../layers/core/logger';
import { useTestDatabase } from '../support/db';

const NOW = new Date('2025-03-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;

describe('limits and staleAction (pure)', () => {
  test('limits follow the manifest: checking 10 min, generating 20 min, queued 2 h', () => {
    expect(WATCHDOG_LIMITS).toEqual({ checkingMs: 10 * MINUTE, generatingMs: 20 * MINUTE, queuedMs: 120 * MINUTE });
    // a live quality worker (120 s timeout) is never released
    expect(WATCHDOG_LIMITS.checkingMs).toBeGreaterThan(120_000);
  });

  test.each<[GenerationStatus, number, string | undefined]>([
    ['checking', 10 * MINUTE, undefined],
    ['checking', 10 * MINUTE + 1, 'release_checking'],
    ['generating', 20 * MINUTE, undefined],
    ['generating', 21 * MINUTE, 'fail_generating'],
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
    investigation = (await db.insertInto('investigations').values({ organization_id: org, title: 'Stuck' }).returning('id').executeTakeFirstOrThrow()).id;
  });

  const analysis = async (status: GenerationStatus, updatedAt: Date) => (await db.insertInto('analyses').values({
    investigation_id: investigation, analysis_type: 'summary', generation_status: status, updated_at: updatedAt,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const status = (id: string) => db.selectFrom('analyses').select(['generation_status', 'quality_error', 'error_message']).where('id', '=', id).executeTakeFirstOrThrow();

  test('releases stale checking, fails stale generating and queued; fresh and resting rows untouched', async () => {
    const error = jest.spyOn(logger, 'error');
    try {
      const stuckChecking = await analysis('checking', ago(11 * MINUTE));
      const freshChecking = await analysis('checking', ago(2 * MINUTE));
      const stuckGenerating = await analysis('generating', ago(30 * MINUTE));
      const freshGenerating = await analysis('generating', ago(4 * MINUTE));
      const stuckQueued = await analysis('queued', ago(3 * 60 * MINUTE));
      const freshQueued = await analysis('queued', ago(30 * MINUTE));
      const old = await analysis('complete', ago(1000 * MINUTE));

      expect(await runWatchdog(db, { now: NOW })).toEqual({ checking_released: 1, generating_failed: 1, queued_failed: 1 });

      expect(await status(stuckChecking)).toMatchObject({ generation_status: 'complete', quality_error: WATCHDOG_MESSAGES.checking });
      expect(error).toHaveBeenCalledWith('[QUALITY_CHECK_FAILURE]', expect.objectContaining({ analysisId: stuckChecking }));
      expect(await status(stuckGenerating)).toMatchObject({ generation_status: 'failed', error_message: expect.stringMatching(/try again/i) });
      expect(await status(stuckQueued)).toMatchObject({ generation_status: 'failed', error_message: expect.stringMatching(/try again/i) });
      for (const [id, s] of [[freshChecking, 'checking'], [freshGenerating, 'generating'], [freshQueued, 'queued'], [old, 'complete']] as const) {
        expect((await status(id)).generation_status).toBe(s);
      }

      // a second run finds nothing more
      expect(await runWatchdog(db, { now: NOW })).toEqual({ checking_released: 0, generating_failed: 0, queued_failed: 0 });
    } finally {
      error.mockRestore();
    }
  });
});
