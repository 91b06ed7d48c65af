/**
 * Engagement gates, judgments, regeneration, edits, history, badges and metrics through the twin's
 * HTTP API (issue 5's acceptance): judgment before the gates → 409, Gate B before Gate A → 409, the
 * full agree / disagree / unsure flow, a regeneration that runs to complete, an edit that keeps both
 * texts, history order, badges, bad input that changes nothing, retried submits recorded once,
 * metrics over hand-built feedback spanning more than 8 weeks, and gates surviving a twin restart.
 * Runs on PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { storedAnalysis } from '../support/fixtures';
import type { TwinTest } from '../support/twin';

export const judgingAnalyses = (e2e: TwinTest): void => {
  const { call } = e2e;
  const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;
  let investigator = '';
  let colleague = '';
  let harbor = '';

  const db = () => e2e.twin.database.db;

  /** A token for a Northwind investigator the service has not seen before (provisioned on first action). */
  const newInvestigator = (name: string) =>
    e2e.twin.token({
      subject: `test-${name}-${randomUUID()}`,
      email: `${name}-${randomUUID().slice(0, 8)}@northwind.example`,
      role: 'investigator',
      organizationId: DEMO_ORGANIZATION_IDS.northwind,
    });

  /** A summary analysis of the demo investigation, generated through the queue, the worker and the Bedrock stand-in. */
  const generatedAnalysis = async (token = investigator) => {
    const created = await call('POST', '/api/analysis', token, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(created.status).toBe(202);
    const analysis = await e2e.pollUntilGenerated(created.body.analysis_id, token);
    expect([analysis.generation_status, analysis.error_message]).toEqual([
      expect.stringMatching(/^(complete|checking|verified|quality_unavailable)$/),
      null,
    ]);
    return analysis.analysis_id as string;
  };

  const passGates = async (analysisId: string, token = investigator) => {
    expect((await call('POST', `/api/analysis/${analysisId}/engagement`, token, { step: 'detail_reviewed' })).status).toBe(200);
    expect((await call('POST', `/api/analysis/${analysisId}/engagement`, token, { step: 'citation_checked' })).status).toBe(200);
  };

  const feedback = (analysisId: string, body: unknown, token = investigator) =>
    call('POST', `/api/analysis/${analysisId}/feedback`, token, body);
  const history = async (analysisId: string) => (await call('GET', `/api/analysis/${analysisId}/feedback`, investigator)).body.feedback;
  const feedbackRows = async () =>
    Number(
      (
        await db()
          .selectFrom('feedback')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  let gated = '';

  beforeAll(async () => {
    [investigator, colleague, harbor] = await Promise.all([
      e2e.token('investigator'),
      newInvestigator('colleague'),
      e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor),
    ]);
    gated = await generatedAnalysis();
  }, 120_000);

  test('judgment before the gates → 409; Gate B before Gate A → 409; gates keep their first time and are per investigator', async () => {
    const refused = await feedback(gated, { action: 'agree' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.missing).toEqual(['detail_reviewed', 'citation_checked']);

    const early = await call('POST', `/api/analysis/${gated}/engagement`, investigator, { step: 'citation_checked' });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/Gate A/);

    const gateA = await call('POST', `/api/analysis/${gated}/engagement`, investigator, { step: 'detail_reviewed' });
    expect(gateA.body).toMatchObject({ analysis_id: gated, citation_checked_at: null, judgment_enabled: false });
    expect(gateA.body.detail_reviewed_at).toEqual(expect.any(String));
    const repeated = await call('POST', `/api/analysis/${gated}/engagement`, investigator, { step: 'detail_reviewed' });
    expect(repeated.body.detail_reviewed_at).toBe(gateA.body.detail_reviewed_at);

    const stillRefused = await feedback(gated, { action: 'agree' });
    expect(stillRefused.status).toBe(409);
    expect(stillRefused.body.error.details.missing).toEqual(['citation_checked']);

    const gateB = await call('POST', `/api/analysis/${gated}/engagement`, investigator, { step: 'citation_checked' });
    expect(gateB.status).toBe(200);
    expect(gateB.body.judgment_enabled).toBe(true);
    const gateBAgain = await call('POST', `/api/analysis/${gated}/engagement`, investigator, { step: 'citation_checked' });
    expect(gateBAgain.body.citation_checked_at).toBe(gateB.body.citation_checked_at);

    const read = (await call('GET', `/api/analysis/${gated}`, investigator)).body;
    expect(read).toMatchObject({
      detail_reviewed_at: gateA.body.detail_reviewed_at,
      citation_checked_at: gateB.body.citation_checked_at,
      judgment_enabled: true,
    });
    const theirs = (await call('GET', `/api/analysis/${gated}`, colleague)).body;
    expect(theirs).toMatchObject({ detail_reviewed_at: null, citation_checked_at: null, judgment_enabled: false });
    expect((await feedback(gated, { action: 'agree' }, colleague)).status).toBe(409);

    expect(await history(gated)).toEqual([]);
  }, 60_000);

  test('agree → accepted, disagree needs a reason → rejected, unsure → needs_revision with the prompt and a regeneration draft', async () => {
    const analysisId = await storedAnalysis(db(), INVESTIGATION);
    await passGates(analysisId);

    const noReason = await feedback(analysisId, { action: 'disagree' });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(noReason.body.error.details)).toMatch(/reason/);
    const blankReason = await feedback(analysisId, { action: 'disagree', reason: '   ' });
    expect(blankReason.status).toBe(400);
    expect(await history(analysisId)).toEqual([]);

    const agreed = await feedback(analysisId, { action: 'agree' });
    expect(agreed.status).toBe(201);
    expect(agreed.body.feedback).toMatchObject({ action: 'agree', status: 'accepted', reason: null });
    expect(agreed.body.analysis.feedback_badge).toEqual({ key: 'agreed', label: 'Agreed', color: 'green' });

    const disagreed = await feedback(analysisId, { action: 'disagree', reason: 'The payments were to two different suppliers.' });
    expect(disagreed.body.feedback).toMatchObject({ status: 'rejected', reason: 'The payments were to two different suppliers.' });
    expect(disagreed.body.analysis.feedback_badge).toEqual({ key: 'disagreed', label: 'Disagreed', color: 'red' });

    const unsure = await feedback(analysisId, { action: 'unsure', direction: 'Compare against the bank statements.' });
    expect(unsure.status).toBe(201);
    expect(unsure.body.feedback.status).toBe('needs_revision');
    expect(unsure.body.analysis.feedback_badge).toEqual({ key: 'needs_revision', label: 'Needs Revision', color: 'purple' });
    expect(unsure.body.prompt).toBe('What would help you decide?');
    expect(['inaccurate_conclusions', 'missing_evidence', 'too_vague', 'wrong_focus', 'other']).toContain(
      unsure.body.regeneration_draft.reason,
    );
    expect(unsure.body.regeneration_draft.direction).toBe('Compare against the bank statements.');

    const bare = await feedback(analysisId, { action: 'unsure' });
    expect(bare.body.regeneration_draft.direction.length).toBeGreaterThan(10);
  }, 60_000);

  test('regenerate: a reason from the list, a new analysis linked to the original that runs to complete; the original is Regenerated', async () => {
    const original = await generatedAnalysis();
    const before = await feedbackRows();
    const analysesBefore = Number(
      (
        await db()
          .selectFrom('analyses')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect((await feedback(original, { action: 'regenerate', reason: 'bored' })).status).toBe(400);
    expect((await feedback(original, { action: 'regenerate', reason: 'other' })).body.error.details).toEqual([
      expect.objectContaining({ path: 'direction' }),
    ]);
    expect((await feedback(original, { action: 'regenerate', reason: 'too_vague', direction: 'x'.repeat(2001) })).status).toBe(400);
    expect(await feedbackRows()).toBe(before);
    expect(
      Number(
        (
          await db()
            .selectFrom('analyses')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(analysesBefore);

    const regenerated = await feedback(original, {
      action: 'regenerate',
      reason: 'missing_evidence',
      direction: 'Include the March ledger pages.',
    });
    expect(regenerated.status).toBe(201);
    expect(regenerated.body.feedback).toMatchObject({
      action: 'regenerate',
      status: 'regenerated',
      reason: 'missing_evidence',
      direction: 'Include the March ledger pages.',
    });
    expect(regenerated.body.analysis.feedback_badge).toEqual({ key: 'regenerated', label: 'Regenerated', color: 'blue' });
    const newId = regenerated.body.regenerated_analysis.analysis_id;
    expect(regenerated.body.feedback.regenerated_analysis_id).toBe(newId);

    const done = await e2e.pollUntilGenerated(newId, investigator);
    expect(['complete', 'checking', 'verified', 'quality_unavailable']).toContain(done.generation_status);
    expect(done).toMatchObject({ regenerated_from: original, analysis_type: 'summary', feedback_status: null });
    const stored = await db()
      .selectFrom('analyses')
      .select(['regeneration_reason', 'regeneration_direction'])
      .where('id', '=', newId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ regeneration_reason: 'missing_evidence', regeneration_direction: 'Include the March ledger pages.' });
  }, 90_000);

  test("edit keeps the AI's text and the investigator's; a later view leaves the Edited badge; a view alone is Viewed", async () => {
    const analysisId = await storedAnalysis(db(), INVESTIGATION);
    const aiResult = (await call('GET', `/api/analysis/${analysisId}`, investigator)).body.result;
    expect((await feedback(analysisId, { action: 'edit', content: '' })).status).toBe(400);
    expect((await feedback(analysisId, { action: 'edit', content: 'x'.repeat(50_001) })).status).toBe(400);

    const edited = await feedback(analysisId, {
      action: 'edit',
      content: 'Edited summary: two payments, one supplier, approved by the same manager.',
    });
    expect(edited.status).toBe(201);
    expect(edited.body.analysis.feedback_badge).toEqual({ key: 'edited', label: 'Edited', color: 'amber' });
    const read = (await call('GET', `/api/analysis/${analysisId}`, investigator)).body;
    expect(read.result).toEqual(aiResult);
    expect(read.edit).toMatchObject({
      revision_id: edited.body.feedback.revision_id,
      content: 'Edited summary: two payments, one supplier, approved by the same manager.',
    });
    expect(read.edit.edited_by.user_id).toBe(edited.body.feedback.actor.user_id);

    const viewed = await feedback(analysisId, { action: 'view' });
    expect(viewed.body.feedback.status).toBe('viewed');
    expect(viewed.body.analysis.feedback_status).toBe('edited');

    const onlyViewed = await storedAnalysis(db(), INVESTIGATION);
    expect((await feedback(onlyViewed, { action: 'view' })).body.analysis.feedback_badge).toEqual({
      key: 'viewed',
      label: 'Viewed',
      color: 'gray',
    });

    const list = (await call('GET', `/api/analysis?investigation_id=${INVESTIGATION}&limit=200`, investigator)).body.analyses;
    const badgeOf = (id: string) => list.find((a: { analysis_id: string }) => a.analysis_id === id).feedback_badge?.key;
    expect(badgeOf(analysisId)).toBe('edited');
    expect(badgeOf(onlyViewed)).toBe('viewed');
  }, 90_000);

  test('history: every action oldest first, with time, actor, reason and direction', async () => {
    const analysisId = await storedAnalysis(db(), INVESTIGATION);
    await passGates(analysisId);
    await passGates(analysisId, colleague);
    await feedback(analysisId, { action: 'view' });
    await feedback(analysisId, { action: 'disagree', reason: 'Misreads the ledger.' }, colleague);
    await feedback(analysisId, { action: 'regenerate', reason: 'wrong_focus', direction: 'Focus on approvals.' });
    await feedback(analysisId, { action: 'agree' });

    const entries = await history(analysisId);
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['view', 'disagree', 'regenerate', 'agree']);
    expect(entries.map((e: { created_at: string }) => e.created_at)).toEqual(
      [...entries.map((e: { created_at: string }) => e.created_at)].sort(),
    );
    expect(entries[1]).toMatchObject({ reason: 'Misreads the ledger.', actor: { display_name: expect.stringMatching(/^colleague-/) } });
    expect(entries[2]).toMatchObject({
      reason: 'wrong_focus',
      direction: 'Focus on approvals.',
      regenerated_analysis_id: expect.any(String),
    });
    expect(entries[0].actor.user_id).toBe(entries[3].actor.user_id);
    expect(entries[0].actor.user_id).not.toBe(entries[1].actor.user_id);
    expect((await call('GET', `/api/analysis/${analysisId}`, investigator)).body.feedback_badge.key).toBe('agreed');

    // paged like every list: limit and the previous page's next_cursor, null on the last page
    const first = (await call('GET', `/api/analysis/${analysisId}/feedback?limit=3`, investigator)).body;
    expect(first.feedback.map((e: { feedback_id: string }) => e.feedback_id)).toEqual(
      entries.slice(0, 3).map((e: { feedback_id: string }) => e.feedback_id),
    );
    const second = (await call('GET', `/api/analysis/${analysisId}/feedback?limit=3&cursor=${first.next_cursor}`, investigator)).body;
    expect(second.feedback.map((e: { feedback_id: string }) => e.feedback_id)).toEqual([entries[3].feedback_id]);
    expect(second.next_cursor).toBeNull();
    expect((await call('GET', `/api/analysis/${analysisId}/feedback?cursor=bogus`, investigator)).status).toBe(400);
    // each recorded action's Location reads it back; another organization's caller finds nothing there
    const recorded = await feedback(analysisId, { action: 'view' });
    expect(recorded.status).toBe(201);
    expect(recorded.headers.get('location')).toBe(`/api/analysis/${analysisId}/feedback/${recorded.body.feedback.feedback_id}`);
    expect((await call('GET', recorded.headers.get('location')!, investigator)).body).toEqual(recorded.body.feedback);
    expect((await call('GET', recorded.headers.get('location')!, harbor)).status).toBe(404);
    expect((await call('GET', `/api/analysis/${gated}/feedback/${recorded.body.feedback.feedback_id}`, investigator)).status).toBe(404);
  }, 90_000);

  test('bad input and the wrong organization: a clear 4xx each, nothing stored', async () => {
    const before = await feedbackRows();
    const cases: [unknown, number, RegExp][] = [
      [{ action: 'like' }, 400, /action must be one of agree, disagree, unsure, regenerate, edit, view/],
      [{}, 400, /action/],
      [{ action: 'agree', reason: 'extra' }, 400, /reason/],
      [{ action: 'disagree', reason: 'x'.repeat(2001) }, 400, /at most 2000/],
      [{ action: 'regenerate', reason: 'Too vague' }, 400, /inaccurate_conclusions, missing_evidence, too_vague, wrong_focus, other/],
      [{ action: 'view', request_id: 'has spaces' }, 400, /request_id/],
    ];
    for (const [body, status, message] of cases) {
      const reply = await feedback(gated, body);
      expect(reply.status).toBe(status);
      expect(JSON.stringify(reply.body.error)).toMatch(message);
    }
    expect((await call('POST', `/api/analysis/${gated}/engagement`, investigator, { step: 'opened' })).status).toBe(400);
    expect((await call('POST', '/api/analysis/not-a-uuid/feedback', investigator, { action: 'view' })).status).toBe(400);
    expect((await feedback(randomUUID(), { action: 'view' })).status).toBe(404);

    expect((await feedback(gated, { action: 'view' }, harbor)).status).toBe(404);
    expect((await call('POST', `/api/analysis/${gated}/engagement`, harbor, { step: 'detail_reviewed' })).status).toBe(404);
    expect((await call('GET', `/api/analysis/${gated}/feedback`, harbor)).status).toBe(404);
    expect((await call('GET', `/api/analysis/feedback-metrics?investigation_id=${INVESTIGATION}`, harbor)).status).toBe(404);
    expect((await call('GET', '/api/analysis/feedback-metrics', investigator)).status).toBe(400);
    expect(await feedbackRows()).toBe(before);
  }, 60_000);

  test('a retried submit records once: same request id (body or Idempotency-Key), also when both copies arrive together', async () => {
    const analysisId = await storedAnalysis(db(), INVESTIGATION);
    const first = await feedback(analysisId, { action: 'regenerate', reason: 'too_vague', request_id: 'retry-1' });
    const again = await feedback(analysisId, { action: 'regenerate', reason: 'too_vague', request_id: 'retry-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(again.body.feedback.feedback_id).toBe(first.body.feedback.feedback_id);
    expect(again.body.regenerated_analysis.analysis_id).toBe(first.body.regenerated_analysis.analysis_id);
    const regenerations = await db().selectFrom('analyses').select('id').where('regenerated_from', '=', analysisId).execute();
    expect(regenerations).toHaveLength(1);

    const reused = await feedback(analysisId, { action: 'view', request_id: 'retry-1' });
    expect(reused.status).toBe(409);

    const viaHeader = async () =>
      (
        await fetch(`${e2e.twin.url}/api/analysis/${analysisId}/feedback`, {
          method: 'POST',
          body: JSON.stringify({ action: 'view' }),
          headers: { authorization: `Bearer ${investigator}`, 'content-type': 'application/json', 'idempotency-key': 'retry-2' },
        })
      ).status;
    expect(await viaHeader()).toBe(201);
    expect(await viaHeader()).toBe(200);

    const together = await Promise.all(
      [1, 2, 3].map(() => feedback(analysisId, { action: 'edit', content: 'Same edit', request_id: 'retry-3' })),
    );
    expect(together.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    const entries = await history(analysisId);
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['regenerate', 'view', 'edit']);
    expect(await db().selectFrom('analysis_revisions').select('id').where('analysis_id', '=', analysisId).execute()).toHaveLength(1);

    // the same request id from another investigator is theirs, not a replay
    expect((await feedback(analysisId, { action: 'view', request_id: 'retry-2' }, colleague)).status).toBe(201);
  }, 90_000);

  test('metrics over hand-built feedback spanning more than 8 weeks match hand-computed figures', async () => {
    const DAY = 86_400_000;
    const now = new Date();
    const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - ((now.getUTCDay() + 6) % 7) * DAY);
    const firstWeek = monday.getTime() - 7 * 7 * DAY;
    /** a moment in trend week `week` (0 = oldest of the 8, 7 = the current one; negative = before the window) */
    const inWeek = (week: number, hour = 10) => new Date(firstWeek + week * 7 * DAY + hour * 3_600_000);

    const org = DEMO_ORGANIZATION_IDS.northwind;
    const investigationId = (
      await db().insertInto('investigations').values({ organization_id: org, title: 'Metrics' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    const user = async (name: string) =>
      (
        await db()
          .insertInto('users')
          .values({
            organization_id: org,
            idp_subject: `metrics-${name}-${randomUUID()}`,
            email: `metrics-${name}-${randomUUID()}@northwind.example`,
            display_name: name,
            role: 'investigator',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const [u1, u2] = [await user('u1'), await user('u2')];
    const analysis = async (
      analysis_type: 'question' | 'topic' | 'summary' | 'gap' | 'error_check',
      generation_status: 'verified' | 'complete' | 'failed' | 'quality_unavailable',
    ) =>
      (
        await db()
          .insertInto('analyses')
          .values({ investigation_id: investigationId, analysis_type, generation_status })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const a1 = await analysis('summary', 'verified');
    const a2 = await analysis('summary', 'complete');
    const a3 = await analysis('gap', 'quality_unavailable');
    const a4 = await analysis('error_check', 'failed');
    const statusOf = {
      agree: 'accepted',
      disagree: 'rejected',
      unsure: 'needs_revision',
      regenerate: 'regenerated',
      edit: 'edited',
      view: 'viewed',
    } as const;
    const add = (analysis_id: string, user_id: string, action: keyof typeof statusOf, created_at: Date, reason: string | null = null) =>
      db().insertInto('feedback').values({ analysis_id, user_id, action, status: statusOf[action], reason, created_at }).execute();
    await add(a1, u1, 'disagree', inWeek(-3), 'first look'); // replaced by u1's later agree
    await add(a1, u1, 'agree', inWeek(1));
    await add(a1, u2, 'disagree', inWeek(7), 'no');
    await add(a2, u1, 'unsure', inWeek(-2)); // before the window: in totals, not in the trend
    await add(a2, u1, 'regenerate', inWeek(-2, 11), 'too_vague');
    await add(a2, u2, 'regenerate', inWeek(4), 'missing_evidence');
    await add(a3, u2, 'regenerate', inWeek(4, 12), 'missing_evidence');
    await add(a3, u2, 'edit', inWeek(5));
    await add(a3, u1, 'view', inWeek(6));
    await add(a4, u1, 'view', inWeek(6)); // a failed analysis is not counted

    const reply = await call('GET', `/api/analysis/feedback-metrics?investigation_id=${investigationId}`, investigator);
    expect(reply.status).toBe(200);
    const m = reply.body;
    // analyses 3 (a4 failed); judgments: (a1,u1) agree, (a1,u2) disagree, (a2,u1) unsure
    expect(m.totals).toEqual({
      analyses: 3,
      judgments: 3,
      accepted: 1,
      rejected: 1,
      needs_revision: 1,
      regenerated_analyses: 2,
      edited_analyses: 1,
      regenerations: 3,
      edits: 1,
      views: 1,
    });
    expect(m.rates).toEqual({ acceptance: 0.3333, rejection: 0.3333, needs_revision: 0.3333, regeneration: 0.6667, edit: 0.3333 });
    const type = (t: string) => m.by_type.find((b: { analysis_type: string }) => b.analysis_type === t);
    expect(type('summary')).toEqual({
      analysis_type: 'summary',
      analyses: 2,
      judgments: 3,
      accepted: 1,
      rejected: 1,
      needs_revision: 1,
      regenerated_analyses: 1,
      edited_analyses: 0,
      rates: { acceptance: 0.3333, rejection: 0.3333, needs_revision: 0.3333, regeneration: 0.5, edit: 0 },
    });
    expect(type('gap')).toEqual({
      analysis_type: 'gap',
      analyses: 1,
      judgments: 0,
      accepted: 0,
      rejected: 0,
      needs_revision: 0,
      regenerated_analyses: 1,
      edited_analyses: 1,
      rates: { acceptance: null, rejection: null, needs_revision: null, regeneration: 1, edit: 1 },
    });
    for (const t of ['question', 'topic', 'error_check'])
      expect(type(t)).toMatchObject({ analyses: 0, judgments: 0, rates: { acceptance: null, regeneration: null } });
    expect(m.top_regeneration_reasons).toEqual([
      { reason: 'missing_evidence', label: 'Missing evidence', count: 2, share: 0.6667 },
      { reason: 'too_vague', label: 'Too vague', count: 1, share: 0.3333 },
    ]);
    expect(m.weekly_trend).toHaveLength(8);
    expect(m.weekly_trend.map((w: { week_start: string }) => w.week_start)).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((w) => new Date(firstWeek + w * 7 * DAY).toISOString()),
    );
    expect(
      m.weekly_trend.map(
        (w: {
          judgments: number;
          accepted: number;
          rejected: number;
          regenerations: number;
          edits: number;
          acceptance_rate: number | null;
        }) => [w.judgments, w.accepted, w.rejected, w.regenerations, w.edits, w.acceptance_rate],
      ),
    ).toEqual([
      [0, 0, 0, 0, 0, null],
      [1, 1, 0, 0, 0, 1],
      [0, 0, 0, 0, 0, null],
      [0, 0, 0, 0, 0, null],
      [0, 0, 0, 2, 0, null],
      [0, 0, 0, 0, 1, null],
      [0, 0, 0, 0, 0, null],
      [1, 0, 1, 0, 0, 0],
    ]);
  }, 60_000);

  test('gate timestamps survive a twin restart (persisted, not held in memory)', async () => {
    const before = (await call('GET', `/api/analysis/${gated}`, investigator)).body;
    expect(before.citation_checked_at).toEqual(expect.any(String));
    await e2e.restart();
    const token = await e2e.token('investigator');
    const after = (await call('GET', `/api/analysis/${gated}`, token)).body;
    expect(after).toMatchObject({
      detail_reviewed_at: before.detail_reviewed_at,
      citation_checked_at: before.citation_checked_at,
      judgment_enabled: true,
    });
    expect((await feedback(gated, { action: 'agree' }, token)).status).toBe(201);
  }, 120_000);
};
