/**
 * Metrics of model outputs (pure). Structural metrics read an answer the way the service reads it
 * (`jsonPart`, `analysisAnswerSchema`, `readAnswer` for analyses; `qualityVerdictSchema` for quality
 * verdicts); expectations are each fixture's own pass/fail checks; run metrics aggregate them.
 *
 * Every run metric declares here, once, which way is better and its unit; `--compare` (compare.ts)
 * holds every metric to that, not a chosen few.
 */
import { analysisAnswerSchema, jsonPart, readAnswer } from '#core/analysis/answer';
import type { QualityConfidence } from '#core/domain/confidence';
import type { ValidationStatus } from '#core/domain/vocabulary';
import { citedChunk, type EvidenceMarkers } from '#core/analysis/evidence-markers';
import { qualityVerdictSchema } from '#core/analysis/quality';
import type { Expectations } from './fixtures';
import { JUDGE_DIMENSIONS, type JudgeScores } from './judge';

export interface AnalysisStructure {
  kind: 'analysis';
  json_parseable: boolean;
  schema_valid: boolean;
  schema_errors: string | null;
  /** what the service would store as validation_status (null when unreadable) */
  validation_status: ValidationStatus | null;
  findings: number;
  /** distinct citations per finding, summed */
  citations: number;
  /** of those, citations naming a marker issued for the prompt's passages */
  valid_citations: number;
  /** the others, as written (a chunk id or label typed in the prompt's text, a made-up id) */
  invalid_citations: string[];
  /** findings citing at least one real passage */
  cited_findings: number;
  confidence: QualityConfidence | null;
  evidence_gaps: number;
  /** distinct real passages cited, and passages in the prompt */
  evidence_cited: number;
  evidence_total: number;
  /** every text of the answer, for the mention checks (not written to results) */
  text: string;
  /** what was cited: the chunk id of an issued marker, or the citation as written */
  cited_ids: string[];
}

export interface QualityStructure {
  kind: 'quality';
  json_parseable: boolean;
  schema_valid: boolean;
  schema_errors: string | null;
  score: number | null;
}

export type Structure = AnalysisStructure | QualityStructure;

const parseJson = (output: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(jsonPart(output)) };
  } catch {
    return { ok: false };
  }
};

const issues = (error: { issues: { path: PropertyKey[]; message: string }[] }): string =>
  error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');

export const analysisStructure = (output: string, markers: EvidenceMarkers): AnalysisStructure => {
  const empty: AnalysisStructure = {
    kind: 'analysis',
    json_parseable: false,
    schema_valid: false,
    schema_errors: null,
    validation_status: null,
    findings: 0,
    citations: 0,
    valid_citations: 0,
    invalid_citations: [],
    cited_findings: 0,
    confidence: null,
    evidence_gaps: 0,
    evidence_cited: 0,
    evidence_total: markers.chunkOf.size,
    text: '',
    cited_ids: [],
  };
  const json = parseJson(output);
  if (!json.ok) return empty;
  const parsed = analysisAnswerSchema.safeParse(json.value);
  if (!parsed.success) return { ...empty, json_parseable: true, schema_errors: issues(parsed.error) };
  const answer = parsed.data;
  const perFinding = answer.findings.map((f) =>
    [...new Set(f.citations)].map((citation) => ({ citation, chunk: citedChunk(markers, citation) })),
  );
  const all = perFinding.flat();
  const valid = all.flatMap((c) => c.chunk ?? []);
  return {
    kind: 'analysis',
    json_parseable: true,
    schema_valid: true,
    schema_errors: null,
    validation_status: readAnswer(output, markers).validation_status,
    findings: answer.findings.length,
    citations: all.length,
    valid_citations: valid.length,
    invalid_citations: [...new Set(all.filter((c) => c.chunk === undefined).map((c) => c.citation))],
    cited_findings: perFinding.filter((cited) => cited.some((c) => c.chunk !== undefined)).length,
    confidence: answer.confidence ?? null,
    evidence_gaps: answer.evidence_gaps.length,
    evidence_cited: new Set(valid).size,
    evidence_total: markers.chunkOf.size,
    text: [answer.summary, ...answer.findings.map((f) => f.statement), ...answer.evidence_gaps].join('\n'),
    cited_ids: [...new Set(all.map((c) => c.chunk ?? c.citation))],
  };
};

export const qualityStructure = (output: string): QualityStructure => {
  const json = parseJson(output);
  if (!json.ok) return { kind: 'quality', json_parseable: false, schema_valid: false, schema_errors: null, score: null };
  const parsed = qualityVerdictSchema.safeParse(json.value);
  return parsed.success
    ? { kind: 'quality', json_parseable: true, schema_valid: true, schema_errors: null, score: parsed.data.score }
    : { kind: 'quality', json_parseable: true, schema_valid: false, schema_errors: issues(parsed.error), score: null };
};

// ---- expectations -----------------------------------------------------------------------------

export interface ExpectationResult {
  name: string;
  passed: boolean;
  detail: string;
}

const lower = (s: string) => s.toLowerCase();

/**
 * Each expectation of a fixture, plus the one every fixture has: the answer is readable (JSON of the
 * shape its prompt asks for). An unreadable answer fails every expectation: the service would store nothing.
 */
export const checkExpectations = (structure: Structure, expectations: Expectations): ExpectationResult[] => {
  const readable: ExpectationResult = {
    name: 'readable',
    passed: structure.schema_valid,
    detail: structure.schema_valid
      ? 'JSON of the expected shape'
      : structure.json_parseable
        ? `wrong shape: ${structure.schema_errors}`
        : 'not JSON',
  };
  const names = Object.entries(expectations)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
  if (!structure.schema_valid) return [readable, ...names.map((name) => ({ name, passed: false, detail: 'the answer could not be read' }))];
  const results = [readable];
  const add = (name: string, passed: boolean, detail: string) => results.push({ name, passed, detail });
  const e = expectations;
  if (structure.kind === 'quality') {
    if (e.score_between) {
      const [min, max] = e.score_between;
      add('score_between', structure.score! >= min && structure.score! <= max, `score ${structure.score} (expected ${min}–${max})`);
    }
    for (const name of names.filter((n) => n !== 'score_between')) add(name, false, 'does not apply to a quality verdict');
    return results;
  }
  const s = structure;
  if (e.must_cite !== undefined) {
    const ok = s.findings > 0 && s.cited_findings === s.findings;
    add('must_cite', ok === e.must_cite, `${s.cited_findings} of ${s.findings} finding(s) cite a real passage`);
  }
  if (e.must_flag_missing_evidence !== undefined) {
    const flagged = s.evidence_gaps > 0 || s.confidence === 'insufficient';
    add(
      'must_flag_missing_evidence',
      flagged === e.must_flag_missing_evidence,
      `${s.evidence_gaps} evidence gap(s), confidence ${s.confidence ?? 'none'}`,
    );
  }
  if (e.confidence_in)
    add(
      'confidence_in',
      s.confidence !== null && e.confidence_in.includes(s.confidence),
      `confidence ${s.confidence ?? 'none'} (expected ${e.confidence_in.join(' | ')})`,
    );
  if (e.min_findings !== undefined)
    add('min_findings', s.findings >= e.min_findings, `${s.findings} finding(s) (at least ${e.min_findings})`);
  if (e.max_findings !== undefined)
    add('max_findings', s.findings <= e.max_findings, `${s.findings} finding(s) (at most ${e.max_findings})`);
  if (e.must_mention) {
    const missing = e.must_mention.filter((p) => !lower(s.text).includes(lower(p)));
    add('must_mention', missing.length === 0, missing.length ? `missing: ${missing.join(', ')}` : 'all mentioned');
  }
  if (e.must_not_mention) {
    const found = e.must_not_mention.filter((p) => lower(s.text).includes(lower(p)));
    add('must_not_mention', found.length === 0, found.length ? `contains: ${found.join(', ')}` : 'none present');
  }
  if (e.must_not_match) {
    const matched = e.must_not_match.filter((source) => new RegExp(source).test(s.text));
    add('must_not_match', matched.length === 0, matched.length ? `matches: ${matched.join(', ')}` : 'no match');
  }
  if (e.must_not_cite) {
    const cited = e.must_not_cite.filter((id) => s.cited_ids.includes(id));
    add('must_not_cite', cited.length === 0, cited.length ? `cites: ${cited.join(', ')}` : 'none cited');
  }
  if (e.score_between) add('score_between', false, 'applies to quality verdicts only');
  return results;
};

// ---- run metrics ------------------------------------------------------------------------------

/** Which way a metric gets better: a move the other way by more than the rule allows is a regression. */
export type Better = 'higher' | 'lower';

/** share: a share or a score on 0..1 (shown as %); count: items per answer or per finding. */
export type MetricUnit = 'share' | 'count';

export interface MetricInfo {
  better: Better;
  unit: MetricUnit;
  description: string;
}

/**
 * The absolute change below which a metric never regresses, whatever the relative change: near zero a
 * relative change means nothing (0.2 % → 0.4 % of something bad is +100 %, and from 0 any rise is
 * infinite). A share: 1 percentage point. A count: 0.05 items per answer (or finding), i.e. less than
 * one item over twenty answers.
 */
export const ABSOLUTE_FLOOR: Record<MetricUnit, number> = { share: 0.01, count: 0.05 };

// Every fixture expecting anything of evidence gaps expects them flagged, and answers to the same
// prompts finding fewer findings, citations or gaps say less: so the counts are higher-is-better too.
export const METRICS = {
  json_parse_rate: { better: 'higher', unit: 'share', description: 'answers that parse as JSON' },
  schema_valid_rate: {
    better: 'higher',
    unit: 'share',
    description: 'answers of the shape the prompt asks for (the service can store them)',
  },
  citation_validity: { better: 'higher', unit: 'share', description: 'citations that name a passage actually in the prompt' },
  cited_finding_rate: { better: 'higher', unit: 'share', description: 'findings citing at least one real passage' },
  confidence_reported_rate: { better: 'higher', unit: 'share', description: 'readable analyses that state a confidence level' },
  expectation_pass_rate: { better: 'higher', unit: 'share', description: 'fixture expectations met' },
  fixture_pass_rate: { better: 'higher', unit: 'share', description: 'fixtures meeting all their expectations' },
  judge_readable_rate: { better: 'higher', unit: 'share', description: 'judge answers in the rubric shape (live runs)' },
  judge_relevance: { better: 'higher', unit: 'share', description: 'judge: answers the question or task asked (1–5 scaled to 0–1)' },
  judge_completeness: { better: 'higher', unit: 'share', description: 'judge: covers what the evidence holds on it (1–5 scaled to 0–1)' },
  judge_accuracy: {
    better: 'higher',
    unit: 'share',
    description: 'judge: every claim supported by the cited passages (1–5 scaled to 0–1)',
  },
  judge_professional_tone: {
    better: 'higher',
    unit: 'share',
    description: 'judge: neutral, precise investigator language (1–5 scaled to 0–1)',
  },
  findings_per_answer: { better: 'higher', unit: 'count', description: 'findings per readable analysis' },
  citations_per_finding: { better: 'higher', unit: 'count', description: 'distinct citations per finding' },
  evidence_gaps_per_answer: { better: 'higher', unit: 'count', description: 'evidence gaps per readable analysis' },
  evidence_coverage: { better: 'higher', unit: 'share', description: 'share of the passages in the prompt that the analysis cites' },
} as const satisfies Record<string, MetricInfo>;
type MetricName = keyof typeof METRICS;
export type Metrics = Record<MetricName, number | null>;

export interface ScoredFixture {
  structure: Structure;
  expectations: ExpectationResult[];
  /** undefined: not judged (offline, or a quality fixture); null: the judge answer was unreadable */
  judge?: JudgeScores | null | undefined;
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);
const mean = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);
const count = <T>(items: T[], pick: (item: T) => boolean): number => items.filter(pick).length;
const sum = <T>(items: T[], pick: (item: T) => number): number => items.reduce((total, item) => total + pick(item), 0);

/** A judge score 1..5 on the 0..1 scale of every other metric. */
const scaleJudge = (score: number): number => (score - 1) / 4;

export const aggregate = (scored: ScoredFixture[]): Metrics => {
  const structures = scored.map((s) => s.structure);
  const analyses = structures.filter((s): s is AnalysisStructure => s.kind === 'analysis');
  const readable = analyses.filter((s) => s.schema_valid);
  const expectations = scored.flatMap((s) => s.expectations);
  const judged = scored.filter((s) => s.judge !== undefined);
  const judges = judged.flatMap((s) => (s.judge ? [s.judge] : []));
  const judgeMean = (dimension: (typeof JUDGE_DIMENSIONS)[number]) => mean(judges.map((j) => scaleJudge(j[dimension].score)));
  const findings = sum(readable, (s) => s.findings);
  return {
    json_parse_rate: ratio(
      count(structures, (s) => s.json_parseable),
      structures.length,
    ),
    schema_valid_rate: ratio(
      count(structures, (s) => s.schema_valid),
      structures.length,
    ),
    citation_validity: ratio(
      sum(readable, (s) => s.valid_citations),
      sum(readable, (s) => s.citations),
    ),
    cited_finding_rate: ratio(
      sum(readable, (s) => s.cited_findings),
      findings,
    ),
    confidence_reported_rate: ratio(
      count(readable, (s) => s.confidence !== null),
      readable.length,
    ),
    expectation_pass_rate: ratio(
      count(expectations, (e) => e.passed),
      expectations.length,
    ),
    fixture_pass_rate: ratio(
      count(scored, (s) => s.expectations.every((e) => e.passed)),
      scored.length,
    ),
    judge_readable_rate: ratio(judges.length, judged.length),
    judge_relevance: judgeMean('relevance'),
    judge_completeness: judgeMean('completeness'),
    judge_accuracy: judgeMean('accuracy'),
    judge_professional_tone: judgeMean('professional_tone'),
    findings_per_answer: ratio(findings, readable.length),
    citations_per_finding: ratio(
      sum(readable, (s) => s.citations),
      findings,
    ),
    evidence_gaps_per_answer: ratio(
      sum(readable, (s) => s.evidence_gaps),
      readable.length,
    ),
    evidence_coverage: mean(readable.filter((s) => s.evidence_total > 0).map((s) => s.evidence_cited / s.evidence_total)),
  };
};

export const confidenceLevels = (scored: ScoredFixture[]): Record<QualityConfidence | 'none', number> => {
  const levels = { established: 0, probable: 0, possible: 0, insufficient: 0, none: 0 };
  for (const { structure: s } of scored) if (s.kind === 'analysis' && s.schema_valid) levels[s.confidence ?? 'none']++;
  return levels;
};
