/**
 * Regression detection (pure): every gated metric that dropped by more than 5 % between a baseline
 * run and this one is flagged, at three levels: the whole run, each category, and each fixture's
 * expectation pass rate (so one fixture going from passing to failing is seen even in a large run).
 *
 * The drop is ABSOLUTE, in percentage points of the 0..1 scale every gated metric shares (shares of
 * answers, citations, expectations; judge scores scaled from 1–5). Why not relative: a relative
 * threshold flags noise on small values (2 % → 1.8 % is a 10 % relative drop), cannot compare from 0,
 * and would make the same loss of quality count differently depending on where a metric happened to
 * stand. 5 points mean the same thing on every metric, as the spec shows scores as 0–100 %.
 *
 * Only like is compared with like: a run-level or category metric only when both runs cover the same
 * fixtures there (a run filtered with --category is compared per category and per fixture), and only
 * metrics present in both runs (judge metrics are absent from offline runs). Everything else is listed
 * as not compared.
 */
import { METRICS, type MetricName } from './metrics';
import type { Results } from './results';

export const REGRESSION_THRESHOLD = 0.05;

export interface MetricChange {
  /** 'run', a category name, or 'fixture <category>/<id>' */
  scope: string;
  metric: string;
  baseline: number;
  current: number;
  /** baseline − current, on the 0..1 scale (positive = dropped) */
  drop: number;
}

export interface Comparison {
  regressions: MetricChange[];
  /** every metric compared, flagged or not */
  changes: MetricChange[];
  not_compared: { scope: string; metric: string; reason: string }[];
  /** prompt types whose template differs between the runs */
  prompt_changes: { prompt_type: string; baseline: number | null; current: number | null }[];
}

const gated = (metric: string): boolean => (METRICS as Record<string, { gated: boolean } | undefined>)[metric]?.gated ?? false;

/** Whether a drop exceeds the threshold; rounded so that exactly 5 points (0.95 after 1.00) is not "more than". */
export const exceeds = (drop: number, threshold = REGRESSION_THRESHOLD): boolean => Math.round(drop * 1e9) > Math.round(threshold * 1e9);

export const compareResults = (baseline: Results, current: Results, threshold = REGRESSION_THRESHOLD): Comparison => {
  const changes: MetricChange[] = [];
  const notCompared: Comparison['not_compared'] = [];
  const scopeOf = (scope: string, base: Record<string, number | null>, now: Record<string, number | null>, only?: readonly string[]) => {
    for (const metric of only ?? [...new Set([...Object.keys(base), ...Object.keys(now)])]) {
      const b = base[metric] ?? null;
      const c = now[metric] ?? null;
      if (b === null && c === null) continue;
      if (b === null || c === null) {
        notCompared.push({ scope, metric, reason: b === null ? 'not in the baseline' : 'not in this run' });
        continue;
      }
      changes.push({ scope, metric, baseline: b, current: c, drop: b - c });
    }
  };
  const fixtureSet = (results: Results, category?: string) =>
    results.fixtures.filter((f) => category === undefined || f.category === category).map((f) => `${f.category}/${f.id}`).sort().join(',');
  const sameFixtures = (category?: string) => fixtureSet(baseline, category) === fixtureSet(current, category);
  if (sameFixtures()) scopeOf('run', baseline.metrics, current.metrics);
  else notCompared.push({ scope: 'run', metric: '*', reason: 'the runs cover different fixtures' });
  for (const category of new Set([...Object.keys(baseline.by_category), ...Object.keys(current.by_category)])) {
    const b = baseline.by_category[category];
    const c = current.by_category[category];
    if (b && c && sameFixtures(category)) scopeOf(category, b, c);
    else notCompared.push({ scope: category, metric: '*', reason: !b ? 'category not in the baseline' : !c ? 'category not in this run' : 'the runs cover different fixtures' });
  }
  const perFixture: readonly MetricName[] = ['expectation_pass_rate'];
  const currentFixtures = new Map(current.fixtures.map((f) => [`${f.category}/${f.id}`, f]));
  for (const b of baseline.fixtures) {
    const key = `${b.category}/${b.id}`;
    const c = currentFixtures.get(key);
    if (c) scopeOf(`fixture ${key}`, b.metrics, c.metrics, perFixture);
  }
  const promptChanges = [...new Set([...Object.keys(baseline.prompts), ...Object.keys(current.prompts)])]
    .filter((type) => baseline.prompts[type]?.sha256 !== current.prompts[type]?.sha256)
    .map((type) => ({ prompt_type: type, baseline: baseline.prompts[type]?.version ?? null, current: current.prompts[type]?.version ?? null }));
  return {
    regressions: changes.filter((c) => gated(c.metric) && exceeds(c.drop, threshold)),
    changes,
    not_compared: notCompared,
    prompt_changes: promptChanges.filter((p) => p.baseline !== null && p.current !== null),
  };
};
