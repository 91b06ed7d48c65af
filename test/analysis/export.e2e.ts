/**
 * An analysis as a record, through the twin's HTTP API: a question analysis generated and checked by the Bedrock
 * stand-in, its gates passed, judged and edited; then the analysis view (question text, claims, aspects, the
 * confidence reason, what an edit means for the scores), the JSON export (checked against its contract by the
 * twin's strict response validation) and the PDF export read back as text. Scoping, a bad format, no token.
 */
import { extractText } from '#core/files/extractors';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import { requestQuestionAnalysis, type TwinTest } from '../support/twin';

export const exportingAnalyses = (e2e: TwinTest): void => {
  const { call } = e2e;
  const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;
  /** with characters the PDF's standard fonts have (é, €, —) and some they have not (≥, 東京), written as "?" */
  const EDIT = 'Investigator edit: the approval came from the deputy CFO (≥ 9,800 €), not the CFO — see the café 東京 receipt.';
  let investigator = '';
  let harbor = '';
  let analysisId = '';
  let questionText = '';

  /** The analysis once its quality checks are done (the stand-in answers them within seconds). */
  const pollUntilChecked = async (id: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await call('GET', `/api/analysis/${id}`, investigator);
      expect(res.status).toBe(200);
      if (['verified', 'quality_unavailable', 'failed'].includes(res.body.generation_status)) return res.body;
      if (res.body.generation_status === 'complete' && res.body.faithfulness_score !== null) return res.body;
      if (Date.now() > deadline) throw new Error(`analysis still ${res.body.generation_status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  beforeAll(async () => {
    [investigator, harbor] = await Promise.all([e2e.token('investigator'), e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor)]);
    const requested = await requestQuestionAnalysis(call, investigator, INVESTIGATION);
    [analysisId, questionText] = [requested.analysisId, requested.question.text];
    await e2e.pollUntilGenerated(analysisId, investigator);
    expect((await pollUntilChecked(analysisId)).generation_status).toBe('verified');
    for (const step of ['detail_reviewed', 'citation_checked']) {
      expect((await call('POST', `/api/analysis/${analysisId}/engagement`, investigator, { step })).status).toBeLessThan(300);
    }
    expect((await call('POST', `/api/analysis/${analysisId}/feedback`, investigator, { action: 'agree' })).status).toBeLessThan(300);
    expect(
      (await call('POST', `/api/analysis/${analysisId}/feedback`, investigator, { action: 'edit', content: EDIT })).status,
    ).toBeLessThan(300);
  }, 150_000);

  test('the view says what the analysis answers, claim by claim, how its confidence was reached, and that the scores are the AI text’s', async () => {
    const { status, body } = await call('GET', `/api/analysis/${analysisId}`, investigator);
    expect(status).toBe(200);
    expect(body).toMatchObject({ question_text: questionText, topic_title: null, quality_applies_to: 'ai_text', edited: true });
    expect(body.quality_note).toMatch(/AI's text/);
    expect(body.edit.content).toBe(EDIT);
    expect(body.confidence_reason).toMatch(new RegExp(`^Faithfulness \\d+ % and coverage \\d+ % give \\w+; .*\\.$`));

    const retrieval = (await call('GET', `/api/analysis/${analysisId}/retrieval`, investigator)).body;
    const included = new Set(
      retrieval.chunks.filter((c: { included: boolean }) => c.included).map((c: { chunk_id: string }) => c.chunk_id),
    );
    expect(body.claims.length).toBeGreaterThan(0);
    for (const claim of body.claims) for (const id of claim.chunk_ids) expect(included.has(id)).toBe(true);
    // the stand-in reviews the findings as the service rendered them: each finding is matched by its claim
    const reviewed = body.claims
      .filter((c: { part: string }) => c.part === 'finding')
      .map((c: { finding_index: number }) => c.finding_index);
    expect([...new Set(reviewed)].sort()).toEqual(body.result.findings.map((_: unknown, i: number) => i));
    expect(body.coverage_aspects.length).toBeGreaterThan(0);
    for (const aspect of body.coverage_aspects) expect(questionText.toLowerCase()).toContain(aspect.aspect.split(' ')[0]);

    const list = await call('GET', `/api/analysis?investigation_id=${INVESTIGATION}`, investigator);
    expect(list.body.analyses.find((a: { analysis_id: string }) => a.analysis_id === analysisId)).toMatchObject({
      question_text: questionText,
      edited: true,
    });
  });

  test('the JSON export: the record, its findings with their passages quoted, the models, timestamps and judgments in order', async () => {
    const res = await call('GET', `/api/analysis/${analysisId}/export?format=json`, investigator);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="analysis-${analysisId}.json"`);
    const record = res.body;
    expect(record.investigation.investigation_id).toBe(INVESTIGATION);
    expect(record.analysis.question_text).toBe(questionText);
    const byChunk = new Map(record.retrieval.chunks.map((c: { chunk_id: string; text: string }) => [c.chunk_id, c.text]));
    const citations = record.findings.flatMap((f: { citations: { chunk_id: string; quote: string }[] }) => f.citations);
    expect(citations.length).toBeGreaterThan(0);
    for (const c of citations) expect(c.quote).toBe(byChunk.get(c.chunk_id));
    // the question's embedding, the analysis and the two checks
    expect(record.models.map((m: { purpose: string }) => m.purpose).sort()).toEqual(['analysis', 'embedding', 'quality']);
    const quality = record.models.find((m: { purpose: string }) => m.purpose === 'quality');
    expect(quality).toMatchObject({ model_id: expect.stringMatching(/haiku/), region: expect.any(String), calls: 2 });
    expect(record.timestamps.quality_checked_at).not.toBeNull();
    expect(record.timestamps.engagements).toHaveLength(1);
    expect(record.timestamps.engagements[0].citation_checked_at).not.toBeNull();
    expect(record.feedback.map((f: { action: string }) => f.action)).toEqual(['agree', 'edit']);
    // the default format is JSON
    expect((await call('GET', `/api/analysis/${analysisId}/export`, investigator)).body.analysis.analysis_id).toBe(analysisId);
  });

  test('the PDF export, read back: the question, the answer, a quoted passage, a claim verdict, the confidence reason, a judgment', async () => {
    const res = await fetch(`${e2e.twin.url}/api/analysis/${analysisId}/export?format=pdf`, {
      headers: { authorization: `Bearer ${investigator}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="analysis-${analysisId}.pdf"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');

    const record = (await call('GET', `/api/analysis/${analysisId}/export`, investigator)).body;
    const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
    const text = flat((await extractText('pdf', bytes)).text);
    expect(text).toContain(flat(`Question: ${questionText}`));
    expect(text).toContain(flat(record.analysis.result.summary).slice(0, 60));
    const quote = record.findings.flatMap((f: { citations: { quote: string }[] }) => f.citations)[0].quote;
    expect(text).toContain(flat(quote).slice(0, 60));
    const claim = record.analysis.claims[0];
    expect(text).toContain(`${claim.supported ? 'Supported' : 'Not supported'}`);
    expect(text).toContain(flat(record.analysis.confidence_reason).slice(0, 40));
    expect(text).toContain('Agreed (accepted)');
    expect(text).toContain('the deputy CFO (? 9,800 €), not the CFO — see the café ?? receipt.');
  });

  test("another organization's analysis is a 404; a bad format a 400 naming the field; no token a 401", async () => {
    for (const format of ['json', 'pdf'])
      expect((await call('GET', `/api/analysis/${analysisId}/export?format=${format}`, harbor)).status).toBe(404);
    const bad = await call('GET', `/api/analysis/${analysisId}/export?format=docx`, investigator);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toMatch(/format.*must be one of: json, pdf/);
    expect((await call('GET', `/api/analysis/${analysisId}/export?format=pdf`)).status).toBe(401);
  });
};
