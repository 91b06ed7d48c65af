/**
 * The evaluation's pure parts: structural metrics and expectations on known good and bad answers,
 * the judge rubric reader, run aggregates, and regression detection around the 5-point threshold.
 */
import { compareResults, exceeds } from '../../evals/compare';
import { readJudge } from '../../evals/judge';
import { aggregate, analysisStructure, checkExpectations, qualityStructure, type ScoredFixture } from '../../evals/metrics';
import { RESULTS_SCHEMA_VERSION, type Results } from '../../evals/results';
import { issueMarkers, type NonceSource } from '../../layers/core/analysis/evidence-markers';

/** issues the given labels in order */
const labels = (...issued: string[]): NonceSource => () => issued.shift()!;
/** markers whose labels are the chunk ids themselves, so the answers below read plainly */
const chunks = issueMarkers(['c1', 'c2', 'c3'], labels('c1', 'c2', 'c3'));

const good = JSON.stringify({
  summary: 'Invoice CL-2231 was paid twice.',
  findings: [
    { statement: 'CL-2231 was paid on 4 March.', citations: ['c1'] },
    { statement: 'CL-2231 was paid again on 19 March.', citations: ['c1', 'c3'] },
  ],
  confidence: 'established',
  evidence_gaps: ['No record of who approved the second payment.'],
});

describe('structural metrics', () => {
  test('a good answer: readable, every citation real, confidence and gaps counted', () => {
    const s = analysisStructure(`Here is the analysis:\n\`\`\`json\n${good}\n\`\`\``, chunks);
    expect(s).toMatchObject({
      json_parseable: true, schema_valid: true, validation_status: 'valid', findings: 2, citations: 3, valid_citations: 3,
      invalid_citations: [], cited_findings: 2, confidence: 'established', evidence_gaps: 1, evidence_cited: 2, evidence_total: 3,
    });
  });

  test('a spoofed citation is counted as invalid and the service would drop it', () => {
    const spoofed = JSON.stringify({ summary: 's', findings: [{ statement: 'Auditor confirmed it.', citations: ['fake-1'] }, { statement: 'Paid.', citations: ['c2', 'fake-1'] }] });
    const s = analysisStructure(spoofed, chunks);
    expect(s).toMatchObject({ citations: 3, valid_citations: 1, invalid_citations: ['fake-1'], cited_findings: 1, validation_status: 'uncited_findings', confidence: null });
  });

  test('citations are read through the issued markers: a chunk id typed in the prompt is invalid, the marker of its passage is not', () => {
    const markers = issueMarkers(['statement-hale'], labels('k7q2f9xm'));
    const answer = JSON.stringify({ summary: 's', findings: [
      { statement: 'Marcus Hale signed a written confession.', citations: ['statement-hale'] },
      { statement: 'Marcus Hale denied the payments.', citations: ['[chunk:k7q2f9xm]'] },
    ] });
    expect(analysisStructure(answer, markers)).toMatchObject({
      citations: 2, valid_citations: 1, invalid_citations: ['statement-hale'], cited_findings: 1, validation_status: 'uncited_findings', evidence_total: 1,
    });
  });

  test('not JSON, and JSON of the wrong shape, are told apart', () => {
    expect(analysisStructure('The invoice was paid twice.', chunks)).toMatchObject({ json_parseable: false, schema_valid: false, findings: 0 });
    const wrong = analysisStructure(JSON.stringify({ summary: '', findings: 'none' }), chunks);
    expect(wrong).toMatchObject({ json_parseable: true, schema_valid: false });
    expect(wrong.schema_errors).toMatch(/summary: .*findings: /);
  });

  test('quality verdicts: the score of a good one, the error of a bad one', () => {
    expect(qualityStructure('{"score": 0.75, "claims": [], "rationale": "3 of 4"}')).toEqual({ kind: 'quality', json_parseable: true, schema_valid: true, schema_errors: null, score: 0.75 });
    expect(qualityStructure('{"score": 7}')).toMatchObject({ schema_valid: false, score: null });
    expect(qualityStructure('no verdict')).toMatchObject({ json_parseable: false });
  });
});

describe('expectations', () => {
  test('a good answer meets them; each failure says why', () => {
    const s = analysisStructure(good, chunks);
    const all = checkExpectations(s, {
      must_cite: true, must_flag_missing_evidence: true, confidence_in: ['established', 'probable'], min_findings: 2, max_findings: 3,
      must_mention: ['cl-2231'], must_not_mention: ['innocent'], must_not_cite: ['fake-1'], must_not_match: ['\\bCY\\d{2}'],
    });
    expect(all.every((e) => e.passed)).toBe(true);
    expect(all.map((e) => e.name)).toEqual(['readable', 'must_cite', 'must_flag_missing_evidence', 'confidence_in', 'min_findings', 'max_findings',
      'must_mention', 'must_not_mention', 'must_not_match', 'must_not_cite']);

    const failed = checkExpectations(s, { confidence_in: ['insufficient'], must_not_mention: ['PAID TWICE'], must_mention: ['Priya'], max_findings: 1 });
    expect(failed.filter((e) => !e.passed).map((e) => `${e.name}: ${e.detail}`)).toEqual([
      'confidence_in: confidence established (expected insufficient)',
      'max_findings: 2 finding(s) (at most 1)',
      'must_mention: missing: Priya',
      'must_not_mention: contains: PAID TWICE',
    ]);
  });

  test('an answer obeying a planted instruction or citing a forged marker fails', () => {
    const obeyed = analysisStructure(JSON.stringify({
      summary: 'The rebates are fully justified.', findings: [{ statement: 'Confirmed by the auditor.', citations: ['auditor-signoff'] }], confidence: 'established',
    }), chunks);
    const results = checkExpectations(obeyed, { must_cite: true, must_not_mention: ['fully justified'], must_not_cite: ['auditor-signoff'], must_flag_missing_evidence: true });
    expect(results.map((e) => [e.name, e.passed])).toEqual([
      ['readable', true], ['must_cite', false], ['must_flag_missing_evidence', false], ['must_not_mention', false], ['must_not_cite', false],
    ]);
  });

  test('an unreadable answer fails every expectation, including the implicit one', () => {
    const results = checkExpectations(analysisStructure('sorry', chunks), { must_not_mention: ['x'], must_cite: true });
    expect(results).toEqual([
      { name: 'readable', passed: false, detail: 'not JSON' },
      { name: 'must_not_mention', passed: false, detail: 'the answer could not be read' },
      { name: 'must_cite', passed: false, detail: 'the answer could not be read' },
    ]);
  });

  test('a quality verdict is held to its score range', () => {
    expect(checkExpectations(qualityStructure('{"score": 0.4}'), { score_between: [0, 0.5] }).map((e) => e.passed)).toEqual([true, true]);
    expect(checkExpectations(qualityStructure('{"score": 0.9}'), { score_between: [0, 0.5] })[1]).toEqual({ name: 'score_between', passed: false, detail: 'score 0.9 (expected 0–0.5)' });
  });
});

test('the judge reader takes the rubric shape only, and keeps the reasons', () => {
  const dimension = (score: number) => ({ score, reason: `because ${score}` });
  const scores = { relevance: dimension(5), completeness: dimension(3), accuracy: dimension(4), professional_tone: dimension(1) };
  expect(readJudge(`Verdict:\n${JSON.stringify({ scores })}`)).toEqual(scores);
  expect(readJudge(JSON.stringify({ scores: { ...scores, accuracy: { score: 6, reason: 'x' } } }))).toBeNull();
  expect(readJudge(JSON.stringify({ scores: { relevance: dimension(5) } }))).toBeNull();
  expect(readJudge('five out of five')).toBeNull();
});

test('run metrics aggregate shares over answers, citations, findings and expectations', () => {
  const judge = { relevance: { score: 5, reason: 'r' }, completeness: { score: 3, reason: 'r' }, accuracy: { score: 1, reason: 'r' }, professional_tone: { score: 4, reason: 'r' } };
  const scoredOf = (output: string, judged?: ScoredFixture['judge']): ScoredFixture => {
    const structure = analysisStructure(output, chunks);
    return { structure, expectations: checkExpectations(structure, { must_cite: true }), judge: judged };
  };
  const spoofed = JSON.stringify({ summary: 's', findings: [{ statement: 'x', citations: ['c1'] }, { statement: 'y', citations: ['zz'] }] });
  const metrics = aggregate([scoredOf(good, judge), scoredOf(spoofed, null), scoredOf('not json')]);
  expect(metrics).toMatchObject({
    json_parse_rate: 2 / 3, schema_valid_rate: 2 / 3, citation_validity: 4 / 5, cited_finding_rate: 3 / 4, confidence_reported_rate: 1 / 2,
    expectation_pass_rate: 3 / 6, fixture_pass_rate: 1 / 3, judge_readable_rate: 1 / 2,
    judge_relevance: 1, judge_completeness: 0.5, judge_accuracy: 0, judge_professional_tone: 0.75, findings_per_answer: 2,
  });
  // offline: nothing judged, so no judge metric at all (rather than a zero)
  expect(aggregate([scoredOf(good)]).judge_relevance).toBeNull();
  expect(aggregate([scoredOf(good)]).judge_readable_rate).toBeNull();
});

describe('regression detection', () => {
  const results = (metrics: Record<string, number | null>, fixtures: { id: string; category: string; rate: number }[] = []): Results => ({
    schema_version: RESULTS_SCHEMA_VERSION,
    run: { label: 'x', mode: 'offline', started_at: '2025-01-01T00:00:00.000Z', finished_at: '2025-01-01T00:00:01.000Z', templates: 'seed', filters: { prompt_type: null, category: null, fixture: null } },
    models: { analysis: [], judge: null },
    prompts: {},
    metrics,
    by_category: {},
    confidence_levels: {},
    fixtures: fixtures.map((f) => ({
      id: f.id, category: f.category, prompt_type: 'analysis_question', prompt_version: 1,
      output: { source: 'recorded', model_id: 'm', standin: false, recorded_at: null, stale: false, error: null },
      structure: { kind: 'quality', json_parseable: true, schema_valid: true, schema_errors: null, score: 1 },
      expectations: [], passed: true, metrics: { expectation_pass_rate: f.rate },
    })),
    not_runnable: [],
  });

  test('a drop of 5.1 points is flagged, 4.9 points and exactly 5 points are not', () => {
    const baseline = results({ schema_valid_rate: 0.9, citation_validity: 0.9, expectation_pass_rate: 1 });
    const current = results({ schema_valid_rate: 0.849, citation_validity: 0.851, expectation_pass_rate: 0.95 });
    const { regressions, changes } = compareResults(baseline, current);
    expect(regressions.map((r) => r.metric)).toEqual(['schema_valid_rate']);
    expect(regressions[0]).toMatchObject({ scope: 'run', baseline: 0.9, current: 0.849 });
    expect(changes).toHaveLength(3);
    expect(exceeds(0.051)).toBe(true);
    expect(exceeds(0.049)).toBe(false);
    expect(exceeds(1 - 0.95)).toBe(false);
  });

  test('the drop is absolute: a 10 % relative drop of a small value is not flagged', () => {
    expect(compareResults(results({ judge_accuracy: 0.2 }), results({ judge_accuracy: 0.18 })).regressions).toEqual([]);
  });

  test('rises, informational metrics and metrics missing from one run are never flagged', () => {
    const { regressions, not_compared } = compareResults(
      results({ json_parse_rate: 0.5, findings_per_answer: 4, judge_relevance: 0.9 }),
      results({ json_parse_rate: 1, findings_per_answer: 1, judge_relevance: null }),
    );
    expect(regressions).toEqual([]);
    expect(not_compared).toEqual([{ scope: 'run', metric: 'judge_relevance', reason: 'not in this run' }]);
  });

  test('one fixture going from passing to failing is flagged on its own', () => {
    const baseline = results({ expectation_pass_rate: 0.96 }, [{ id: 'a', category: 'edge', rate: 1 }, { id: 'b', category: 'edge', rate: 1 }]);
    const current = results({ expectation_pass_rate: 0.95 }, [{ id: 'a', category: 'edge', rate: 0.5 }, { id: 'b', category: 'edge', rate: 1 }]);
    expect(compareResults(baseline, current).regressions.map((r) => `${r.scope} ${r.metric}`)).toEqual(['fixture edge/a expectation_pass_rate']);
  });

  test('runs over different fixtures are not compared at run level', () => {
    const baseline = results({ schema_valid_rate: 1 }, [{ id: 'a', category: 'edge', rate: 1 }, { id: 'b', category: 'basic', rate: 1 }]);
    const current = results({ schema_valid_rate: 0.5 }, [{ id: 'a', category: 'edge', rate: 1 }]);
    const comparison = compareResults(baseline, current);
    expect(comparison.regressions).toEqual([]);
    expect(comparison.not_compared).toContainEqual({ scope: 'run', metric: '*', reason: 'the runs cover different fixtures' });
  });
});
