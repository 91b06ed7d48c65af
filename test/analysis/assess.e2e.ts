/**
 * POST /api/analysis/assess end to end through the twin: HTTP → API Gateway stand-in (JWT
 * authorizer) → functions/http/analysis-assess.ts → the seeded demo database. Runs on PGlite, or on
 * real PostgreSQL when TEST_DATABASE_URL is set.
 */
import { BLOCKING_NO_EVIDENCE } from '#core/analysis/assess';
import { promptUnavailableMessage } from '#core/analysis/prompts';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import type { Twin } from '../../lib/twin/twin';
import type { TwinTest } from '../support/twin';

export const assessingAnalyses = (e2e: TwinTest): void => {
  const PATH = '/api/analysis/assess';
  const NORTHWIND = DEMO_INVESTIGATION_IDS.northwind;
  /** The demo question nothing is linked to (demo.json key q-others-involved). */
  const UNLINKED_QUESTION_TEXT = 'Were any other Northwind employees aware of or involved in the arrangement with Brightline?';

  let twin: Twin;
  const tokens = { northwind: '', harbor: '', admin: '' };
  let questions: { question_id: string; text: string; linked_evidence_count: number }[];
  let topicId: string;

  const call = (body: unknown, token: string | undefined = tokens.northwind) => e2e.call('POST', PATH, token, body);

  beforeAll(async () => {
    twin = e2e.twin;
    [tokens.northwind, tokens.harbor, tokens.admin] = await Promise.all([
      e2e.token('investigator'),
      e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor),
      e2e.token('admin'),
    ]);
    const investigation = (await e2e.call('GET', `/api/investigations/${NORTHWIND}`, tokens.northwind)).body as {
      questions: typeof questions;
      topics: { topic_id: string }[];
    };
    questions = investigation.questions;
    topicId = investigation.topics[0]!.topic_id;
  });

  test('the demo question with nothing linked: an informational note, and generation may proceed', async () => {
    const unlinked = questions.find((q) => q.text === UNLINKED_QUESTION_TEXT)!;
    expect(unlinked.linked_evidence_count).toBe(0);
    const res = await call({ investigation_id: NORTHWIND, analysis_type: 'question', question_id: unlinked.question_id });
    expect(res.status).toBe(200);
    expect(res.body.linked_evidence).toBe(0);
    expect(res.body.total_evidence).toBeGreaterThanOrEqual(30);
    expect(res.body.note).toMatch(/No evidence is linked directly to this question/);
    expect(res.body.blocking).toBeNull();
    expect(res.body.can_generate).toBe(true);
  });

  test('a demo question with links: linked_evidence counted, no note, the full wire shape', async () => {
    const linked = questions.find((q) => q.linked_evidence_count > 0)!;
    const res = await call({ investigation_id: NORTHWIND, analysis_type: 'question', question_id: linked.question_id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total_evidence: expect.any(Number),
      linked_evidence: linked.linked_evidence_count,
      background_documents: { count: expect.any(Number), included: true, included_count: expect.any(Number) },
      source_breakdown: { content: expect.any(Number), attachments: expect.any(Number), background_docs: expect.any(Number) },
      // the demo's evidence is embedded at start-up: all of it ready
      evidence_ready: { ready: res.body.total_evidence, total: res.body.total_evidence },
      note: null,
      blocking: null,
      refusal: null,
      can_generate: true,
    });
    expect(res.body.linked_evidence).toBeGreaterThan(0);
    expect(res.body.source_breakdown.attachments).toBeGreaterThan(0);
    expect(res.body.background_documents.count).toBeGreaterThan(0);
  });

  test('topic and summary analyses: no linked count', async () => {
    for (const body of [
      { investigation_id: NORTHWIND, analysis_type: 'topic', topic_id: topicId },
      { investigation_id: NORTHWIND, analysis_type: 'summary' },
    ]) {
      const res = await call(body);
      expect(res.status).toBe(200);
      expect(res.body.linked_evidence).toBeNull();
      expect(res.body.can_generate).toBe(true);
    }
  });

  test('an investigator of another organization gets 404, as for a missing investigation', async () => {
    const res = await call({ investigation_id: NORTHWIND, analysis_type: 'summary' }, tokens.harbor);
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'not_found', message: 'The investigation was not found.' });
  });

  test('no token: 401', async () => {
    const res = await call({ investigation_id: NORTHWIND, analysis_type: 'summary' }, '');
    expect(res.status).toBe(401);
  });

  test('a design-only type: 400 saying it is not available', async () => {
    const res = await call({ investigation_id: NORTHWIND, analysis_type: 'Timeline Analysis' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('analysis_type_unavailable');
    expect(res.body.error.message).toMatch(/^Timeline Analysis is a design-only analysis type and is not available\./);
  });

  test('bad input: 400 naming the field', async () => {
    const res = await call({ investigation_id: NORTHWIND, analysis_type: 'question' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'question_id', message: 'is required for a question analysis' }]);
  });

  test('an investigation with zero evidence: the blocking message, and generation may not proceed', async () => {
    const db = twin.database.db;
    const { id } = await db
      .insertInto('investigations')
      .values({ organization_id: DEMO_ORGANIZATION_IDS.northwind, title: 'Just opened' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: questionId } = await db
      .insertInto('questions')
      .values({ investigation_id: id, text: 'What happened?' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await call({ investigation_id: id, analysis_type: 'question', question_id: questionId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total_evidence: 0,
      linked_evidence: 0,
      background_documents: { count: 0, included: false, included_count: 0 },
      source_breakdown: { content: 0, attachments: 0, background_docs: 0 },
      evidence_ready: { ready: 0, total: 0 },
      note: null,
      blocking: BLOCKING_NO_EVIDENCE,
      refusal: { reason: 'no_evidence', message: BLOCKING_NO_EVIDENCE },
      can_generate: false,
    });
  });

  test("the type's prompt template deactivated: cannot generate, with the reason POST /api/analysis then answers 409 with", async () => {
    const request = { investigation_id: NORTHWIND, analysis_type: 'gap' };
    const setActive = (isActive: boolean) => e2e.call('PATCH', '/api/admin/prompts/analysis_gap', tokens.admin, { is_active: isActive });
    expect((await setActive(false)).status).toBe(200);
    try {
      const assessed = await call(request);
      expect(assessed.status).toBe(200);
      const refusal = { reason: 'prompt_inactive', message: promptUnavailableMessage('analysis_gap') };
      // the evidence is all there: the template alone stops it, and it is not the evidence's blocking message
      expect(assessed.body).toMatchObject({ blocking: null, refusal, can_generate: false });
      expect(assessed.body.total_evidence).toBeGreaterThan(0);

      const created = await e2e.call('POST', '/api/analysis', tokens.northwind, request);
      expect(created.status).toBe(409);
      expect(created.body.error).toEqual({ code: 'conflict', message: refusal.message, details: { reason: refusal.reason } });
    } finally {
      // switched back on, so other tests on this twin are unaffected
      expect((await setActive(true)).status).toBe(200);
    }
    expect((await call(request)).body).toMatchObject({ refusal: null, can_generate: true });
  });
};
