/**
 * Quality checks through the twin: the generation worker queues them automatically and the analysis
 * ends verified with scores and a confidence; a manual quality-check (202) runs them again; a failing
 * check returns to complete with the reason; a hot shedder (primary region throttling, generation
 * served by the fallback) leaves the analysis quality_unavailable; organization scoping and auth.
 */
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { AI_REGIONS, type Twin } from '../../lib/twin/twin';
import type { TwinTest } from '../support/twin';

export const qualityChecks = (e2e: TwinTest): void => {
  const { call } = e2e;
  let twin: Twin;
  let investigator = '';
  let harbor = '';
  const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;

  beforeAll(async () => {
    twin = e2e.twin;
    [investigator, harbor] = await Promise.all([e2e.token('investigator'), e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor)]);
  });

  /**
   * Polls quality-status (one read per round, so the state is consistent) until the analysis rests: generation
   * failed, or its quality state verified, failed or unavailable — not_started on a complete analysis
   * means the automatic check is still to be picked up. Returns the analysis as GET reads it then.
   */
  const pollUntilResting = async (analysisId: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await call('GET', `/api/analysis/${analysisId}/quality-status`, investigator);
      expect(res.status).toBe(200);
      if (res.body.generation_status === 'failed' || ['verified', 'failed', 'unavailable'].includes(res.body.quality_state)) {
        return (await call('GET', `/api/analysis/${analysisId}`, investigator)).body;
      }
      if (Date.now() > deadline) throw new Error(`analysis still ${res.body.generation_status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const create = async (analysisType = 'summary') => {
    const created = await call('POST', '/api/analysis', investigator, { investigation_id: INVESTIGATION, analysis_type: analysisType });
    expect(created.status).toBe(202);
    return created.body.analysis_id as string;
  };

  const expectScores = (body: { faithfulness_score: number; coverage_score: number; quality_confidence: string }) => {
    for (const score of [body.faithfulness_score, body.coverage_score]) {
      expect(typeof score).toBe('number');
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
    expect(['established', 'probable', 'possible', 'insufficient']).toContain(body.quality_confidence);
  };

  let verifiedId = '';

  test('after generation the checks run by themselves: verified with scores and a confidence', async () => {
    verifiedId = await create('summary');
    const analysis = await pollUntilResting(verifiedId);
    expect(analysis.generation_status).toBe('verified');
    expect(analysis.error_message).toBeNull();
    expectScores(analysis);

    const status = await call('GET', `/api/analysis/${verifiedId}/quality-status`, investigator);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      analysis_id: verifiedId,
      generation_status: 'verified',
      quality_state: 'verified',
      quality_error: null,
      checking_since: null,
      faithfulness_score: analysis.faithfulness_score,
      coverage_score: analysis.coverage_score,
      quality_confidence: analysis.quality_confidence,
    });
    expect(Date.parse(status.body.quality_checked_at)).not.toBeNaN();
    const quality = await twin.database.db
      .selectFrom('ai_calls')
      .select(['purpose', 'outcome'])
      .where('analysis_id', '=', verifiedId)
      .where('purpose', '=', 'quality')
      .execute();
    expect(quality).toEqual([
      { purpose: 'quality', outcome: 'ok' },
      { purpose: 'quality', outcome: 'ok' },
    ]);
  }, 70_000);

  test('a manual quality-check: 202 checking, then verified again; a second call while checking is 409', async () => {
    const before = await call('GET', `/api/analysis/${verifiedId}/quality-status`, investigator);
    const started = await call('POST', `/api/analysis/${verifiedId}/quality-check`, investigator);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ analysis_id: verifiedId, generation_status: 'checking' });
    expect(started.headers.get('location')).toBe(`/api/analysis/${verifiedId}/quality-status`);
    const again = await call('POST', `/api/analysis/${verifiedId}/quality-check`, investigator);
    // the worker may already have finished (202 again) — otherwise it is still checking (409)
    expect([202, 409]).toContain(again.status);
    const analysis = await pollUntilResting(verifiedId);
    expect(analysis.generation_status).toBe('verified');
    expectScores(analysis);
    const after = await call('GET', `/api/analysis/${verifiedId}/quality-status`, investigator);
    expect(Date.parse(after.body.quality_checked_at)).toBeGreaterThan(Date.parse(before.body.quality_checked_at));
  }, 70_000);

  test('another organization gets 404, no token 401, a bad id 400; a queued analysis cannot be checked (409)', async () => {
    expect((await call('POST', `/api/analysis/${verifiedId}/quality-check`, harbor)).status).toBe(404);
    expect((await call('GET', `/api/analysis/${verifiedId}/quality-status`, harbor)).status).toBe(404);
    expect((await call('POST', `/api/analysis/${verifiedId}/quality-check`)).status).toBe(401);
    expect((await call('GET', `/api/analysis/${verifiedId}/quality-status`)).status).toBe(401);
    expect((await call('GET', '/api/analysis/not-a-uuid/quality-status', investigator)).status).toBe(400);
    const queued = await twin.database.db
      .insertInto('analyses')
      .values({ investigation_id: INVESTIGATION, analysis_type: 'summary', generation_status: 'queued' })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const refused = await call('POST', `/api/analysis/${queued.id}/quality-check`, investigator);
      expect(refused.status).toBe(409);
      expect((await call('GET', `/api/analysis/${queued.id}/quality-status`, investigator)).body.quality_state).toBe('not_started');
    } finally {
      await twin.database.db.deleteFrom('analyses').where('id', '=', queued.id).execute();
    }
  });

  test('a check that fails (its template deactivated) returns to complete with the reason; a re-check then verifies', async () => {
    const db = twin.database.db;
    await db.updateTable('prompt_templates').set({ is_active: false }).where('prompt_type', '=', 'quality_faithfulness').execute();
    try {
      expect((await call('POST', `/api/analysis/${verifiedId}/quality-check`, investigator)).status).toBe(202);
      const analysis = await pollUntilResting(verifiedId);
      expect(analysis.generation_status).toBe('complete');
      const status = await call('GET', `/api/analysis/${verifiedId}/quality-status`, investigator);
      expect(status.body).toMatchObject({
        generation_status: 'complete',
        quality_state: 'failed',
        quality_error: expect.stringMatching(/quality_faithfulness/),
      });
    } finally {
      await db.updateTable('prompt_templates').set({ is_active: true }).where('prompt_type', '=', 'quality_faithfulness').execute();
    }
    expect((await call('POST', `/api/analysis/${verifiedId}/quality-check`, investigator)).status).toBe(202);
    expect((await pollUntilResting(verifiedId)).generation_status).toBe('verified');
    expect((await call('GET', `/api/analysis/${verifiedId}/quality-status`, investigator)).body.quality_error).toBeNull();
  }, 70_000);

  // last: the throttles it causes keep the shedder hot for 60 s (they are removed afterwards too)
  test('the primary region throttling: generation falls back and succeeds, the check is shed → quality_unavailable', async () => {
    // the start-up embedding sweep filled the primary region's request quota, so calls would go straight
    // to the fallback without ever being throttled: free the quota so they meet the primary's throttles
    await twin.database.db.deleteFrom('ai_quota_reservations').execute();
    twin.bedrock.setFaults(AI_REGIONS.primary, { throttleRatio: 1 });
    try {
      const id = await create('gap');
      const analysis = await pollUntilResting(id);
      expect(analysis.generation_status).toBe('quality_unavailable');
      expect(analysis.result.findings.length).toBeGreaterThan(0);
      expect(analysis.faithfulness_score).toBeNull();
      const status = await call('GET', `/api/analysis/${id}/quality-status`, investigator);
      expect(status.body).toMatchObject({ quality_state: 'unavailable', quality_error: expect.stringMatching(/shed/) });
      const shed = await twin.database.db
        .selectFrom('ai_calls')
        .select('outcome')
        .where('analysis_id', '=', id)
        .where('purpose', '=', 'quality')
        .execute();
      expect(shed).toEqual([{ outcome: 'shed' }]);
    } finally {
      twin.bedrock.clearFaults();
      await twin.database.db.deleteFrom('ai_calls').where('outcome', '=', 'throttled').execute();
    }
  }, 70_000);
};
