/**
 * Retrieval under the similarity floor (issue 15, item 3), as pure rules: which candidates are included
 * when some, or none, reach the floor; the floor as a stage sets it; and the line the prompt then opens
 * its evidence with, which the twin's stand-in (like a model) reads as an instruction, never as a passage.
 */
import { analysisPromptValues, LOW_RELEVANCE_NOTE, renderTemplate } from '#core/analysis/prompts';
import { decideInclusion, EXCLUSION, inclusionRules, RETRIEVAL, type Candidate } from '#core/analysis/retrieval';
import { parseMinSimilarity } from '#core/analysis/similarity-floor';
import { FENCED_TEMPLATES } from '#core/db/migrations/0010-fenced-prompts';
import { ENV } from '#core/config';
import { parsePrompt } from '../../lib/twin/bedrock/text';
import { setEnv } from '../support/config-env';

const candidates = (...similarities: number[]): Candidate[] =>
  similarities.map((similarity, i) => ({
    chunk_id: `c${i + 1}`,
    text: `Passage ${i + 1}.`,
    source_type: 'content',
    evidence_item_id: `e${i + 1}`,
    background_document_id: null,
    similarity,
  }));
const rules = { ...RETRIEVAL, minSimilarity: 0.2 };

test('some candidates reach the floor: the first maxIncluded of them are included, not low relevance', () => {
  const { ranked, lowRelevance } = decideInclusion(candidates(0.5, 0.3, 0.2, 0.19, 0.1), rules);
  expect(lowRelevance).toBe(false);
  expect(ranked.map((r) => [r.rank, r.included, r.exclusion_reason])).toEqual([
    [1, true, null],
    [2, true, null],
    [3, true, null],
    [4, false, EXCLUSION.belowThreshold],
    [5, false, EXCLUSION.belowThreshold],
  ]);
  const many = decideInclusion(candidates(...Array.from({ length: 12 }, () => 0.4)), rules).ranked;
  expect(many.filter((r) => r.included)).toHaveLength(RETRIEVAL.maxIncluded);
  expect(many.at(-1)!.exclusion_reason).toBe(EXCLUSION.contextFull);
});

test("none reaches the floor (the demo's unlinked question, best 0.189): the closest lowRelevanceIncluded are included and the analysis says so", () => {
  const similarities = [0.189, 0.17, 0.16, 0.15, 0.12, 0.11, 0.1, 0.05, 0, -0.01];
  const { ranked, lowRelevance } = decideInclusion(candidates(...similarities), rules);
  expect(lowRelevance).toBe(true);
  expect(RETRIEVAL.lowRelevanceIncluded).toBe(5);
  expect(ranked.filter((r) => r.included).map((r) => r.chunk_id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  // the rest are still excluded for what they are: below the threshold
  for (const r of ranked.filter((x) => !x.included)) expect(r.exclusion_reason).toBe(EXCLUSION.belowThreshold);
  for (const r of ranked.filter((x) => x.included)) expect(r.exclusion_reason).toBeNull();
  // fewer candidates than that: all of them
  expect(decideInclusion(candidates(0.05, 0.01), rules).ranked.every((r) => r.included)).toBe(true);
});

test('no candidates: nothing included and not low relevance (generation reports no evidence instead)', () => {
  expect(decideInclusion([], rules)).toEqual({ ranked: [], lowRelevance: false });
});

test('a floor of 0 includes whatever is nearest; a floor of 1 only an exact match, else low relevance', () => {
  expect(decideInclusion(candidates(0.01, 0), { ...rules, minSimilarity: 0 }).lowRelevance).toBe(false);
  expect(decideInclusion(candidates(0.99), { ...rules, minSimilarity: 1 }).lowRelevance).toBe(true);
});

describe('the floor as a stage sets it (RETRIEVAL_MIN_SIMILARITY)', () => {
  const saved = process.env[ENV.retrievalMinSimilarity];
  afterEach(() => {
    setEnv({ [ENV.retrievalMinSimilarity]: saved });
  });

  test('unset: 0.20; set: that number', () => {
    setEnv({ [ENV.retrievalMinSimilarity]: undefined });
    expect(inclusionRules().minSimilarity).toBe(0.2);
    setEnv({ [ENV.retrievalMinSimilarity]: '0.15' });
    expect(inclusionRules()).toEqual({ ...RETRIEVAL, minSimilarity: 0.15 });
  });

  test('a number from 0 to 1, anything else refused', () => {
    expect(parseMinSimilarity('0')).toBe(0);
    expect(parseMinSimilarity('0.35')).toBe(0.35);
    expect(parseMinSimilarity('1')).toBe(1);
    for (const bad of ['', ' ', 'x', '-0.1', '1.5', 'NaN', 'Infinity']) expect(() => parseMinSimilarity(bad)).toThrow(/from 0 to 1/);
  });
});

describe('the prompt of a low-relevance analysis', () => {
  const evidence = [
    { id: 'chunk-1', text: 'Owen Pratt signed the receiving log.' },
    { id: 'chunk-2', text: 'The racking was inspected in January.' },
  ];
  let n = 0;
  const nonce = () => `label${++n}`;
  const input = { investigationTitle: 'Brightline', question: 'Were other employees involved?', evidence };

  test('{{evidence}} opens with the note, before the first marker; without low relevance there is none', () => {
    const low = analysisPromptValues({ ...input, lowRelevance: true }, nonce).values.evidence!;
    expect(low.startsWith(`${LOW_RELEVANCE_NOTE}\n\n[chunk:`)).toBe(true);
    expect(LOW_RELEVANCE_NOTE).not.toMatch(/[[\]]/); // cannot pass for a marker
    expect(analysisPromptValues(input, nonce).values.evidence).not.toContain(LOW_RELEVANCE_NOTE);
  });

  test('rendered into a stored template, the stand-in reads the note as instructions and the passages as before', () => {
    const { values } = analysisPromptValues({ ...input, lowRelevance: true }, nonce);
    const prompt = parsePrompt(
      FENCED_TEMPLATES.analysis_question!.system,
      renderTemplate(FENCED_TEMPLATES.analysis_question!.user, values),
    );
    expect(prompt.passages.map((p) => p.text)).toEqual(evidence.map((e) => e.text));
    expect(prompt.instructions).toContain('weakly related');
  });
});
