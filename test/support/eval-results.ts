/** A results file of the evals, built for a comparison test: run metrics and fixtures with their pass rates. */
import { RESULTS_SCHEMA_VERSION, type Results } from '../../evals/results';

export interface FixtureRate {
  id: string;
  rate: number;
  category?: string;
  prompt_type?: string;
  stale?: boolean;
}

export const evalResults = (
  metrics: Record<string, number | null>,
  fixtures: FixtureRate[] = [],
  run: Partial<Results['run']> = {},
): Results => ({
  schema_version: RESULTS_SCHEMA_VERSION,
  run: {
    label: 'x',
    mode: 'offline',
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: '2025-01-01T00:00:01.000Z',
    templates: 'seed',
    filters: { prompt_type: null, category: null, fixture: null },
    ...run,
  },
  models: { analysis: [], judge: null },
  prompts: {},
  metrics,
  by_category: {},
  confidence_levels: {},
  fixtures: fixtures.map((f) => ({
    id: f.id,
    category: f.category ?? 'edge',
    prompt_type: f.prompt_type ?? 'analysis_question',
    prompt_version: 1,
    output: { source: 'recorded', model_id: 'm', standin: false, recorded_at: null, stale: f.stale ?? false, error: null },
    structure: { kind: 'quality', json_parseable: true, schema_valid: true, schema_errors: null, score: 1 },
    expectations: [],
    passed: true,
    metrics: { expectation_pass_rate: f.rate },
  })),
  not_runnable: [],
});
