/**
 * One evaluation run: each selected fixture is rendered, answered (from its recording offline, or by
 * the model through the AI gateway), scored (structure, expectations, and the judge in live runs) and
 * summed up into a results document. Design-only fixtures are only listed: nothing here can run them,
 * because the runner never receives them as runnable fixtures.
 */
import type { AiGateway } from '#core/ai/gateway';
import { readAnswer, type AnalysisAnswer } from '#core/analysis/answer';
import { isQualityType, type Filters, type Fixture, type FixtureSet } from './fixtures';
import { JUDGE_SYSTEM, judgePrompt, readJudge, type JudgeScores } from './judge';
import {
  aggregate,
  analysisStructure,
  checkExpectations,
  confidenceLevels,
  qualityStructure,
  type Metrics,
  type ScoredFixture,
  type Structure,
} from './metrics';
import type { Progress } from './progress';
import { isStandinOutput, type Recording } from './recordings';
import { renderFixture, type RenderedPrompt, type Templates } from './render';
import { RESULTS_SCHEMA_VERSION, type FixtureResult, type Results } from './results';

interface ModelAnswer {
  text: string;
  model_id: string;
  standin: boolean;
  recorded_at: string | null;
  stale: boolean;
}

export interface AnswerSource {
  mode: 'offline' | 'live';
  answer: (fixture: Fixture, rendered: RenderedPrompt) => Promise<ModelAnswer>;
  /** live runs only: the judge's answer text for an analysis */
  judge?: (fixture: Fixture, answer: AnalysisAnswer) => Promise<string>;
  judgeModel: string | null;
}

const DESIGN_ONLY_REASON = 'design-only analysis type (SPEC item 9): listed, never executed';

/** Answers from the recordings: no model call, no network. */
export const recordedAnswers = (recordings: ReadonlyMap<string, Recording>): AnswerSource => ({
  mode: 'offline',
  judgeModel: null,
  answer: async (fixture, rendered) => {
    const r = recordings.get(fixture.id);
    if (!r) throw new Error(`no recording for ${fixture.id}`);
    return {
      text: r.output,
      model_id: r.model_id,
      standin: r.standin,
      recorded_at: r.recorded_at,
      stale: r.prompt_sha256 !== rendered.sha256,
    };
  },
});

/** The model's answers through the gateway: purpose 'analysis' or 'quality' as the service calls it, 'judge' for the rubric. */
export const liveAnswers = (gateway: Pick<AiGateway, 'converse'>, judgeModel: string): AnswerSource => ({
  mode: 'live',
  judgeModel,
  answer: async (fixture, rendered) => {
    const out = await gateway.converse({
      purpose: isQualityType(fixture.prompt_type) ? 'quality' : 'analysis',
      system: rendered.system,
      prompt: rendered.prompt,
    });
    return { text: out.text, model_id: out.modelId, standin: isStandinOutput(out.text), recorded_at: null, stale: false };
  },
  judge: async (fixture, answer) =>
    (await gateway.converse({ purpose: 'judge', system: JUDGE_SYSTEM, prompt: judgePrompt(fixture, answer) })).text,
});

export interface RunOptions {
  selected: FixtureSet;
  templates: Templates;
  source: AnswerSource;
  label: string;
  filters: Filters;
  progress?: Progress | undefined;
  now?: () => Date;
}

const messageOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

const structureOf = (fixture: Fixture, text: string, rendered: RenderedPrompt): Structure =>
  isQualityType(fixture.prompt_type) ? qualityStructure(text) : analysisStructure(text, rendered.markers);

/** Per-fixture metrics kept in the results: the fixture's expectation pass rate and its judge scores. */
const fixtureMetrics = (metrics: Metrics): Record<string, number | null> =>
  Object.fromEntries(
    Object.entries(metrics).filter(([name, value]) => name === 'expectation_pass_rate' || (name.startsWith('judge_') && value !== null)),
  );

const publicStructure = (structure: Structure): FixtureResult['structure'] => {
  if (structure.kind === 'quality') return structure;
  const { text: _text, cited_ids: _cited, ...rest } = structure;
  return rest;
};

export const runEvaluation = async (options: RunOptions): Promise<Results> => {
  const { selected, templates, source, progress } = options;
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const prompts: Results['prompts'] = {};
  const fixtures: FixtureResult[] = [];
  const scored: (ScoredFixture & { category: string })[] = [];

  for (const fixture of selected.runnable) {
    const rendered = await renderFixture(fixture, templates);
    prompts[rendered.prompt_type] = { version: rendered.version, sha256: rendered.template_sha256 };
    let answer: ModelAnswer | undefined;
    let error: string | null = null;
    try {
      answer = await source.answer(fixture, rendered);
    } catch (e) {
      error = messageOf(e);
    }
    const structure = structureOf(fixture, answer?.text ?? '', rendered);
    const expectations = checkExpectations(structure, fixture.expectations);
    let judge: JudgeScores | null | undefined;
    let judgeError: string | null | undefined;
    if (source.judge && answer && structure.kind === 'analysis' && structure.schema_valid) {
      try {
        judge = readJudge(await source.judge(fixture, readAnswer(answer.text, rendered.markers).answer));
        judgeError = judge ? null : 'the judge answer was not in the rubric shape';
      } catch (e) {
        judge = null;
        judgeError = messageOf(e);
      }
    }
    const one: ScoredFixture = { structure, expectations, judge };
    scored.push({ ...one, category: fixture.category });
    fixtures.push({
      id: fixture.id,
      category: fixture.category,
      prompt_type: fixture.prompt_type,
      prompt_version: rendered.version,
      output: {
        source: source.mode === 'offline' ? 'recorded' : 'live',
        model_id: answer?.model_id ?? null,
        standin: answer?.standin ?? false,
        recorded_at: answer?.recorded_at ?? null,
        stale: answer?.stale ?? false,
        error,
      },
      structure: publicStructure(structure),
      expectations,
      ...(judge !== undefined && { judge, judge_error: judgeError ?? null }),
      passed: error === null && expectations.every((e) => e.passed),
      metrics: fixtureMetrics(aggregate([one])),
    });
    progress?.tick(`${fixture.category}/${fixture.id}`);
  }
  progress?.done();

  const categories = [...new Set(scored.map((s) => s.category))];
  return {
    schema_version: RESULTS_SCHEMA_VERSION,
    run: {
      label: options.label,
      mode: source.mode,
      started_at: startedAt.toISOString(),
      finished_at: now().toISOString(),
      templates: templates.source,
      filters: {
        prompt_type: options.filters.promptType ?? null,
        category: options.filters.category ?? null,
        fixture: options.filters.fixture ?? null,
      },
    },
    models: {
      analysis: [...new Set(fixtures.flatMap((f) => (f.output.model_id ? [f.output.model_id] : [])))].sort(),
      judge: source.judgeModel,
    },
    prompts,
    metrics: aggregate(scored),
    by_category: Object.fromEntries(categories.map((c) => [c, aggregate(scored.filter((s) => s.category === c))])),
    confidence_levels: confidenceLevels(scored),
    fixtures,
    not_runnable: selected.future.map((f) => ({ id: f.id, analysis_type: f.analysis_type, reason: DESIGN_ONLY_REASON })),
  };
};
