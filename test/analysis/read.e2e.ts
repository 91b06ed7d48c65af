/**
 * Reading analyses through the twin's HTTP API: the retrieval panel of a generated question analysis
 * (real evidence titles, bands, reasons, summary) and the investigation's analysis list (newest
 * first, with badges); organization scoping, validation and authentication. Runs on PGlite, or real
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { similarityBand } from '#core/domain/similarity';
import { RETRIEVAL } from '#core/analysis/retrieval';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { requestQuestionAnalysis, type TwinTest } from '../support/twin';
import {
  apiClient,
  type Analysis,
  type AnalysisDetail,
  type AnalysisRequest,
  type ApiError,
  type Investigation,
  type RetrievalChunk,
} from '../../web/api/client';

export const readingAnalyses = (e2e: TwinTest): void => {
  const { call } = e2e;
  let investigator = '';
  let harbor = '';
  let analysisId = '';
  const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;

  const pollUntilSettled = (id: string) => e2e.pollUntilGenerated(id, investigator);

  beforeAll(async () => {
    [investigator, harbor] = await Promise.all([e2e.token('investigator'), e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor)]);

    ({ analysisId } = await requestQuestionAnalysis(call, investigator, INVESTIGATION));
    const analysis = await pollUntilSettled(analysisId);
    expect(['complete', 'checking', 'verified', 'quality_unavailable']).toContain(analysis.generation_status);
  }, 120_000);

  test('the retrieval panel: ranked chunks titled by their real sources, with bands, reasons and a consistent summary', async () => {
    const res = await call('GET', `/api/analysis/${analysisId}/retrieval`, investigator);
    expect(res.status).toBe(200);
    const { chunks, summary } = res.body;
    expect(res.body.analysis_id).toBe(analysisId);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.map((c: { rank: number }) => c.rank)).toEqual(chunks.map((_: unknown, i: number) => i + 1));

    const items = await e2e.twin.database.db
      .selectFrom('evidence_items')
      .select(['id', 'title'])
      .where('investigation_id', '=', INVESTIGATION)
      .execute();
    const docs = await e2e.twin.database.db
      .selectFrom('background_documents')
      .select(['id', 'title'])
      .where('investigation_id', '=', INVESTIGATION)
      .execute();
    const titleOf = new Map([...items, ...docs].map((r) => [r.id, r.title]));
    for (const c of chunks) {
      expect(c.source_title).not.toMatch(/unknown/i);
      expect(c.source_deleted).toBe(false);
      if (c.type === 'background_doc') expect(c.source_title).toBe(titleOf.get(c.background_document_id));
      else if (c.type === 'content') expect(c.source_title).toBe(titleOf.get(c.evidence_item_id));
      else expect(c.source_title.startsWith(titleOf.get(c.evidence_item_id)!)).toBe(true);
      expect(c.similarity).toBeGreaterThanOrEqual(0);
      expect(c.similarity).toBeLessThanOrEqual(1);
      expect(c.band).toEqual(similarityBand(c.similarity));
      expect(typeof c.text).toBe('string');
      if (c.included) expect(c.exclusion_reason).toBeNull();
      else expect(c.exclusion_reason).toMatch(/\w/);
    }
    const included = chunks.filter((c: { included: boolean }) => c.included).length;
    // the rule the context was chosen by, as the generation recorded it (this deployment's: no stage floor)
    expect(summary).toEqual({
      total: chunks.length,
      included,
      excluded: chunks.length - included,
      rule: {
        min_similarity: RETRIEVAL.minSimilarity,
        max_included: RETRIEVAL.maxIncluded,
        low_relevance_included: RETRIEVAL.lowRelevanceIncluded,
      },
    });
    expect(included).toBeGreaterThan(0);
    expect(summary.excluded).toBeGreaterThan(0); // 20 candidates, at most 8 in the context
    const stored = await e2e.twin.database.db
      .selectFrom('retrieval_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('analysis_id', '=', analysisId)
      .executeTakeFirstOrThrow();
    expect(summary.total).toBe(Number(stored.n));
  });

  test('the analysis list: newest first, the same view as the single read, with badges', async () => {
    const newer = await call('POST', '/api/analysis', investigator, { investigation_id: INVESTIGATION, analysis_type: 'summary' });
    expect(newer.status).toBe(202);
    const res = await call('GET', `/api/analysis?investigation_id=${INVESTIGATION}`, investigator);
    expect(res.status).toBe(200);
    const ids = res.body.analyses.map((a: { analysis_id: string }) => a.analysis_id);
    expect(ids.indexOf(newer.body.analysis_id)).toBeLessThan(ids.indexOf(analysisId));
    expect(ids.indexOf(analysisId)).toBeGreaterThanOrEqual(0);
    const created = res.body.analyses.map((a: { created_at: string }) => a.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const one = await call('GET', `/api/analysis/${analysisId}`, investigator);
    const listed = res.body.analyses.find((a: { analysis_id: string }) => a.analysis_id === analysisId);
    expect(Object.keys(listed).sort()).toEqual(
      Object.keys(one.body)
        .filter((key) => !['edit', 'claims', 'coverage_aspects'].includes(key))
        .sort(),
    );
    expect(listed).toHaveProperty('feedback_badge');

    const page = await call('GET', `/api/analysis?investigation_id=${INVESTIGATION}&limit=1`, investigator);
    expect(page.body.analyses).toHaveLength(1);
    expect(page.body.analyses[0].analysis_id).toBe(ids[0]);
    const next = await call('GET', `/api/analysis?investigation_id=${INVESTIGATION}&limit=1&cursor=${page.body.next_cursor}`, investigator);
    expect(next.body.analyses[0].analysis_id).toBe(ids[1]);
    await pollUntilSettled(newer.body.analysis_id);
  });

  test('organization scoping, validation and authentication', async () => {
    expect((await call('GET', `/api/analysis/${analysisId}/retrieval`, harbor)).status).toBe(404);
    expect((await call('GET', `/api/analysis?investigation_id=${INVESTIGATION}`, harbor)).status).toBe(404);
    expect((await call('GET', `/api/analysis/${analysisId}/retrieval`)).status).toBe(401);
    expect((await call('GET', `/api/analysis?investigation_id=${INVESTIGATION}`)).status).toBe(401);

    const badId = await call('GET', '/api/analysis/not-a-uuid/retrieval', investigator);
    expect(badId.status).toBe(400);
    expect(badId.body.error.details).toEqual([{ path: 'analysis_id', message: 'must be a UUID' }]);
    const missing = await call('GET', '/api/analysis', investigator);
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { path: string }) => d.path)).toEqual(['investigation_id']);
    expect((await call('GET', '/api/analysis?investigation_id=nope', investigator)).status).toBe(400);
    expect((await call('GET', `/api/analysis?investigation_id=${INVESTIGATION}&limit=500`, investigator)).status).toBe(400);
  });

  test("the typed client generated from the OpenAPI document reads it all by the document's named types", async () => {
    const api = apiClient(e2e.twin.url, () => investigator);
    const investigations = await api.GET('/api/investigations', { params: { query: { limit: 1 } } });
    expect(investigations.response.status).toBe(200);
    const first: Investigation = investigations.data!.investigations[0]!;
    expect(first.investigation_id).toBe(INVESTIGATION);
    expect(investigations.data!.next_cursor).toBeNull();

    const detail = await api.GET('/api/analysis/{analysis_id}', { params: { path: { analysis_id: analysisId } } });
    const analysis: AnalysisDetail = detail.data!;
    expect(analysis.analysis_id).toBe(analysisId);
    expect(detail.response.headers.get('x-request-id')).toEqual(expect.any(String));

    const list = await api.GET('/api/analysis', { params: { query: { investigation_id: INVESTIGATION, limit: 200 } } });
    const listed: Analysis | undefined = list.data!.analyses.find((a) => a.analysis_id === analysisId);
    expect(listed?.generation_status).toBe(analysis.generation_status);

    const retrieval = await api.GET('/api/analysis/{analysis_id}/retrieval', { params: { path: { analysis_id: analysisId } } });
    const chunks: RetrievalChunk[] = retrieval.data!.chunks;
    expect(chunks.length).toBeGreaterThan(0);

    const request: AnalysisRequest = { investigation_id: INVESTIGATION, analysis_type: 'summary' };
    const assessed = await api.POST('/api/analysis/assess', { body: request });
    expect(assessed.data!.can_generate).toBe(true);

    const missing = await api.GET('/api/analysis/{analysis_id}', {
      params: { path: { analysis_id: '00000000-0000-4000-8000-000000000000' } },
    });
    // the service's error shape, or API Gateway's own ({ message }) for what it answers itself
    if (!missing.error || !('error' in missing.error))
      throw new Error(`expected the service's error, got ${JSON.stringify(missing.error)}`);
    const refusal: ApiError = missing.error;
    expect([missing.response.status, refusal.error.code]).toEqual([404, 'not_found']);
  });
};
