/**
 * The evaluation's pure parts: structural metrics and expectations on known good and bad answers,
 * the judge rubric reader, run aggregates, and regression detection: the rule (5 % of the baseline, the
 * absolute floors, each metric's direction) and the comparison of two runs.
 */
import { comparisonPassed, compareResults, isRegression } from '../../evals/compare';
import { readJudge } from '../../evals/judge';
import { aggregate, analysisStructure, checkExpectations, qualityStructure, type ScoredFixture } from '../../evals/metrics';
import { recordCommands } from '../../evals/recordings';
import type { Results } from '../../evals/results';
import { issueMarkers, type NonceSource } from '#core/analysis/evidence-markers';
import { evalResults, type FixtureRate } from '../support/eval-results';

/** issues the given labels in order */
const labels =
  (...issued: string[]): NonceSource =>
  () =>
    issued.shift()!;
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
      json_parseable: true,
      schema_valid: true,
      validation_status: 'valid',
      findings: 2,
      citations: 3,
      valid_citations: 3,
      invalid_citations: [],
      cited_findings: 2,
      confidence: 'established',
      evidence_gaps: 1,
      evidence_cited: 2,
      evidence_total: 3,
    });
  });

  test('a spoofed citation is counted as invalid and the service would drop it', () => {
    const spoofed = JSON.stringify({
      summary: 's',
      findings: [
        { statement: 'Auditor confirmed it.', citations: ['fake-1'] },
        { statement: 'Paid.', citations: ['c2', 'fake-1'] },
      ],
    });
    const s = analysisStructure(spoofed, chunks);
    expect(s).toMatchObject({
      citations: 3,
      valid_citations: 1,
      invalid_citations: ['fake-1'],
      cited_findings: 1,
      validation_status: 'uncited_findings',
      confidence: null,
    });
  });

  test('citations are read through the issued markers: a chunk id typed in the prompt is invalid, the marker of its passage is not', () => {
    const markers = issueMarkers(['statement-hale'], labels('k7q2f9xm'));
    const answer = JSON.stringify({
      summary: 's',
      findings: [
        { statement: 'Marcus Hale signed a written confession.', citations: ['statement-hale'] },
        { statement: 'Marcus Hale denied the payments.', citations: ['[chunk:k7q2f9xm]'] },
      ],
    });
    expect(analysisStructure(answer, markers)).toMatchObject({
      citations: 2,
      valid_citations: 1,
      invalid_citations: ['statement-hale'],
      cited_findings: 1,
      validation_status: 'uncited_findings',
      evidence_total: 1,
    });
  });

  test('not JSON, and JSON of the wrong shape, are told apart', () => {
    expect(analysisStructure('The invoice was paid twice.', chunks)).toMatchObject({
      json_parseable: false,
      schema_valid: false,
      findings: 0,
    });
    const wrong = analysisStructure(JSON.stringify({ summary: '', findings: 'none' }), chunks);
    expect(wrong).toMatchObject({ json_parseable: true, schema_valid: false });
    expect(wrong.schema_errors).toMatch(/summary: .*findings: /);
  });

  test('quality verdicts: the score of a good one, the error of a bad one', () => {
    expect(qualityStructure('{"score": 0.75, "claims": [], "rationale": "3 of 4"}')).toEqual({
      kind: 'quality',
      json_parseable: true,
      schema_valid: true,
      schema_errors: null,
      score: 0.75,
    });
    expect(qualityStructure('{"score": 7}')).toMatchObject({ schema_valid: false, score: null });
    expect(qualityStructure('no verdict')).toMatchObject({ json_parseable: false });
  });
});

describe('expectations', () => {
  test('a good answer meets them; each failure says why', () => {
    const s = analysisStructure(good, chunks);
    const all = checkExpectations(s, {
      must_cite: true,
      must_flag_missing_evidence: true,
      confidence_in: ['established', 'probable'],
      min_findings: 2,
      max_findings: 3,
      must_mention: ['cl-2231'],
      must_not_mention: ['innocent'],
      must_not_cite: ['fake-1'],
      must_not_match: ['\\bCY\\d{2}'],
    });
    expect(all.every((e) => e.passed)).toBe(true);
    expect(all.map((e) => e.name)).toEqual([
      'readable',
      'must_cite',
      'must_flag_missing_evidence',
      'confidence_in',
      'min_findings',
      'max_findings',
      'must_mention',
      'must_not_mention',
      'must_not_match',
      'must_not_cite',
    ]);

    const failed = checkExpectations(s, {
      confidence_in: ['insufficient'],
      must_not_mention: ['PAID TWICE'],
      must_mention: ['Priya'],
      max_findings: 1,
    });
    expect(failed.filter((e) => !e.passed).map((e) => `${e.name}: ${e.detail}`)).toEqual([
      'confidence_in: confidence established (expected insufficient)',
      'max_findings: 2 finding(s) (at most 1)',
      'must_mention: missing: Priya',
      'must_not_mention: contains: PAID TWICE',
    ]);
  });

  test('an answer obeying a planted instruction or citing a forged marker fails', () => {
    const obeyed = analysisStructure(
      JSON.stringify({
        summary: 'The rebates are fully justified.',
        findings: [{ statement: 'Confirmed by the auditor.', citations: ['auditor-signoff'] }],
        confidence: 'established',
      }),
      chunks,
    );
    const results = checkExpectations(obeyed, {
      must_cite: true,
      must_not_mention: ['fully justified'],
      must_not_cite: ['auditor-signoff'],
      must_flag_missing_evidence: true,
    });
    expect(results.map((e) => [e.name, e.passed])).toEqual([
      ['readable', true],
      ['must_cite', false],
      ['must_flag_missing_evidence', false],
      ['must_not_mention', false],
      ['must_not_cite', false],
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
    expect(checkExpectations(qualityStructure('{"score": 0.9}'), { score_between: [0, 0.5] })[1]).toEqual({
      name: 'score_between',
      passed: false,
      detail: 'score 0.9 (expected 0–0.5)',
    });
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
  const judge = {
    relevance: { score: 5, reason: 'r' },
    completeness: { score: 3, reason: 'r' },
    accuracy: { score: 1, reason: 'r' },
    professional_tone: { score: 4, reason: 'r' },
  };
  const scoredOf = (output: string, judged?: ScoredFixture['judge']): ScoredFixture => {
    const structure = analysisStructure(output, chunks);
    return { structure, expectations: checkExpectations(structure, { must_cite: true }), judge: judged };
  };
  const spoofed = JSON.stringify({
    summary: 's',
    findings: [
      { statement: 'x', citations: ['c1'] },
      { statement: 'y', citations: ['zz'] },
    ],
  });
  const metrics = aggregate([scoredOf(good, judge), scoredOf(spoofed, null), scoredOf('not json')]);
  expect(metrics).toMatchObject({
    json_parse_rate: 2 / 3,
    schema_valid_rate: 2 / 3,
    citation_validity: 4 / 5,
    cited_finding_rate: 3 / 4,
    confidence_reported_rate: 1 / 2,
    expectation_pass_rate: 3 / 6,
    fixture_pass_rate: 1 / 3,
    judge_readable_rate: 1 / 2,
    judge_relevance: 1,
    judge_completeness: 0.5,
    judge_accuracy: 0,
    judge_professional_tone: 0.75,
    findings_per_answer: 2,
  });
  // offline: nothing judged, so no judge metric at all (rather than a zero)
  expect(aggregate([scoredOf(good)]).judge_relevance).toBeNull();
  expect(aggregate([scoredOf(good)]).judge_readable_rate).toBeNull();
});

describe('the regression rule', () => {
  const share = { better: 'higher', unit: 'share' } as const;
  const count = { better: 'higher', unit: 'count' } as const;
  const lowerShare = { better: 'lower', unit: 'share' } as const;

  test('worse by more than 5 % of the baseline is a regression; exactly 5 % is not', () => {
    expect(isRegression(share, 0.8, 0.76)).toBe(false); // 0.04 = 5 % of 0.8, exactly
    expect(isRegression(share, 0.8, 0.7599)).toBe(true);
    expect(isRegression(share, 1, 0.95)).toBe(false);
    expect(isRegression(share, 1, 0.949)).toBe(true);
    expect(isRegression(count, 3.1, 1.55)).toBe(true); // halved
    expect(isRegression(count, 2, 1.9)).toBe(false);
    expect(isRegression(count, 2, 1.89)).toBe(true);
  });

  test('the drop is relative: 10 % of a small value is flagged, 4 % of a large one is not', () => {
    expect(isRegression(share, 0.2, 0.18)).toBe(true);
    expect(isRegression(share, 0.9, 0.865)).toBe(false);
  });

  test('a lower-is-better metric regresses when it rises, and never when it falls', () => {
    expect(isRegression(lowerShare, 0.2, 0.22)).toBe(true);
    expect(isRegression(lowerShare, 0.2, 0.21)).toBe(false); // exactly 5 %
    expect(isRegression(lowerShare, 0.5, 0)).toBe(false);
  });

  test('near zero the absolute floor decides: 0 → 0.001 is no regression, nor 0.02 → 0.018 or 0.5 → 0.46 findings per answer', () => {
    expect(isRegression(lowerShare, 0, 0.001)).toBe(false);
    expect(isRegression(lowerShare, 0, 0.01)).toBe(false); // exactly the floor
    expect(isRegression(lowerShare, 0, 0.011)).toBe(true);
    expect(isRegression(share, 0.02, 0.018)).toBe(false);
    expect(isRegression(count, 0.5, 0.46)).toBe(false);
    expect(isRegression(count, 0.5, 0.44)).toBe(true);
  });

  test('an improvement or no change is never a regression', () => {
    expect(isRegression(share, 0.5, 1)).toBe(false);
    expect(isRegression(count, 0, 0)).toBe(false);
  });
});

describe('comparing two runs', () => {
  const results = (metrics: Record<string, number | null>, fixtures: FixtureRate[] = [], templates: Results['run']['templates'] = 'seed') =>
    evalResults(metrics, fixtures, { templates });

  test('every metric is compared: halving findings or citations is flagged, as is a share dropping by more than 5 %', () => {
    const baseline = results({
      schema_valid_rate: 0.9,
      citation_validity: 0.9,
      expectation_pass_rate: 1,
      findings_per_answer: 3.1,
      citations_per_finding: 1.2,
      evidence_coverage: 0.95,
    });
    const current = results({
      schema_valid_rate: 0.85,
      citation_validity: 0.856,
      expectation_pass_rate: 0.95,
      findings_per_answer: 1.55,
      citations_per_finding: 0.6,
      evidence_coverage: 0.95,
    });
    const { regressions, changes } = compareResults(baseline, current);
    expect(regressions.map((r) => r.metric)).toEqual(['schema_valid_rate', 'findings_per_answer', 'citations_per_finding']);
    expect(regressions[1]).toMatchObject({
      scope: 'run',
      better: 'higher',
      unit: 'count',
      baseline: 3.1,
      current: 1.55,
      worsening: 1.55,
      relative: 0.5,
      regression: true,
    });
    expect(changes).toHaveLength(6);
  });

  test('rises are never flagged; metrics missing from one run, or unknown to this version, are listed as not compared', () => {
    const { regressions, not_compared } = compareResults(
      results({ json_parse_rate: 0.5, findings_per_answer: 1, judge_relevance: 0.9, retired_metric: 1 }),
      results({ json_parse_rate: 1, findings_per_answer: 4, judge_relevance: null, retired_metric: 0 }),
    );
    expect(regressions).toEqual([]);
    expect(not_compared).toEqual([
      { scope: 'run', metric: 'judge_relevance', reason: 'not in this run' },
      { scope: 'run', metric: 'retired_metric', reason: 'not a metric of this version of the evals' },
    ]);
  });

  test('one fixture going from passing to failing is flagged on its own', () => {
    const baseline = results({ expectation_pass_rate: 0.96 }, [
      { id: 'a', category: 'edge', rate: 1 },
      { id: 'b', category: 'edge', rate: 1 },
    ]);
    const current = results({ expectation_pass_rate: 0.95 }, [
      { id: 'a', category: 'edge', rate: 0.5 },
      { id: 'b', category: 'edge', rate: 1 },
    ]);
    expect(compareResults(baseline, current).regressions.map((r) => `${r.scope} ${r.metric}`)).toEqual([
      'fixture edge/a expectation_pass_rate',
    ]);
  });

  test('runs over different fixtures are not compared at run level', () => {
    const baseline = results({ schema_valid_rate: 1 }, [
      { id: 'a', category: 'edge', rate: 1 },
      { id: 'b', category: 'basic', rate: 1 },
    ]);
    const current = results({ schema_valid_rate: 0.5 }, [{ id: 'a', category: 'edge', rate: 1 }]);
    const comparison = compareResults(baseline, current);
    expect(comparison.regressions).toEqual([]);
    expect(comparison.not_compared).toContainEqual({ scope: 'run', metric: '*', reason: 'the runs cover different fixtures' });
  });

  test('a stale recording fails the comparison even with every metric unchanged, naming the command that records it again', () => {
    const fixtures = [
      { id: 'a', category: 'basic', rate: 1 },
      { id: 'b', category: 'basic', rate: 1 },
    ];
    const baseline = results({ schema_valid_rate: 1 }, fixtures);
    const fresh = compareResults(baseline, results({ schema_valid_rate: 1 }, fixtures));
    expect(comparisonPassed(fresh)).toBe(true);
    const stale = compareResults(baseline, results({ schema_valid_rate: 1 }, [{ ...fixtures[0]!, stale: true }, fixtures[1]!]));
    expect(stale).toMatchObject({
      regressions: [],
      stale: ['basic/a'],
      record_commands: [{ command: 'npm run eval -- record --fixture a', fixtures: ['basic/a'] }],
    });
    expect(comparisonPassed(stale)).toBe(false);
  });
});

test("record commands: a prompt type whose fixtures are all stale is recorded as a type, else fixture by fixture, from the run's templates", () => {
  const fixture = (id: string, prompt_type: string, stale: boolean) => ({
    id,
    category: 'basic',
    prompt_type,
    output: { stale } as Results['fixtures'][number]['output'],
  });
  const fixtures = [
    fixture('q1', 'analysis_question', true),
    fixture('q2', 'analysis_question', true),
    fixture('g1', 'analysis_gap', true),
    fixture('g2', 'analysis_gap', false),
    fixture('g3', 'analysis_gap', true),
    fixture('s1', 'analysis_summary', false),
  ];
  expect(recordCommands(fixtures, 'seed')).toEqual([
    { command: 'npm run eval -- record --prompt-type analysis_question', fixtures: ['basic/q1', 'basic/q2'] },
    { command: 'npm run eval -- record --fixture g1', fixtures: ['basic/g1'] },
    { command: 'npm run eval -- record --fixture g3', fixtures: ['basic/g3'] },
  ]);
  expect(recordCommands(fixtures.slice(0, 2), 'database').map((c) => c.command)).toEqual([
    'npm run eval -- record --prompt-type analysis_question --templates database',
  ]);
  expect(recordCommands(fixtures.slice(5), 'seed')).toEqual([]);
});
