/**
 * Regression detection (pure). Every metric is held to the way that is better for it (declared once in
 * metrics.ts): it regressed when it moved the other way by more than 5 % of its baseline value (the
 * spec's threshold) and by more than its absolute floor (a relative change near zero means nothing).
 * Checked at three levels: the whole run, each category, and each fixture's expectation pass rate (so
 * one fixture going from passing to failing is seen even in a large run; a fixture's judge scores are
 * one judge call each, too noisy alone, and are compared through the run and category means).
 *
 * Only like is compared with like: a run-level or category metric only when both runs cover the same
 * fixtures there (a run filtered with --category is compared per category and per fixture), and only
 * metrics present in both runs (judge metrics are absent from offline runs). Everything else is listed
 * as not compared.
 *
 * A recording answering another prompt than the one rendered now fails the comparison too: the run then
 * measures an old prompt, and a prompt change would pass the gate untested.
 */
import { ABSOLUTE_FLOOR, METRICS, type Better, type MetricInfo, type MetricUnit } from './metrics';
import { recordCommands, type RecordCommand } from './recordings';
import type { Results } from './results';

/** "dropped by more than 5 %" (SPEC part 10): of the baseline value. */
export const REGRESSION_THRESHOLD = 0.05;

/** The rule in words, as the summary and the JUnit report state it. */
export const REGRESSION_RULE =
  `worse than the baseline by more than ${REGRESSION_THRESHOLD * 100} % of the baseline value and by more than ` +
  `${ABSOLUTE_FLOOR.share * 100} percentage point (shares) or ${ABSOLUTE_FLOOR.count} (counts)`;

export interface MetricChange {
  /** 'run', a category name, or 'fixture <category>/<id>' */
  scope: string;
  metric: string;
  better: Better;
  unit: MetricUnit;
  baseline: number;
  current: number;
  /** how much worse this run is, in the metric's own unit (negative: better) */
  worsening: number;
  /** worsening / |baseline|; null when the baseline is 0 */
  relative: number | null;
  regression: boolean;
}

export interface Comparison {
  regressions: MetricChange[];
  /** every metric compared, flagged or not */
  changes: MetricChange[];
  not_compared: { scope: string; metric: string; reason: string }[];
  /** fixtures of this run whose recording answered another prompt (`<category>/<id>`) */
  stale: string[];
  /** the commands that record them again */
  record_commands: RecordCommand[];
  /** prompt types whose template differs between the runs */
  prompt_changes: { prompt_type: string; baseline: number | null; current: number | null }[];
}

/** Rounded to 1e-9 so that float noise cannot turn exactly 5 % (or exactly the floor) into "more than". */
const above = (value: number, limit: number): boolean => Math.round(value * 1e9) > Math.round(limit * 1e9);

/** How much worse `current` is than `baseline` for a metric that is better `better` (negative: it improved). */
const worseningOf = (better: Better, baseline: number, current: number): number =>
  better === 'higher' ? baseline - current : current - baseline;

/**
 * The regression rule: worse by more than `threshold` of the baseline value AND by more than the
 * metric's absolute floor. From a baseline of 0 any worsening is infinitely relative, so the floor decides.
 */
export const isRegression = (
  metric: Pick<MetricInfo, 'better' | 'unit'>,
  baseline: number,
  current: number,
  threshold = REGRESSION_THRESHOLD,
): boolean => {
  const worsening = worseningOf(metric.better, baseline, current);
  return above(worsening, ABSOLUTE_FLOOR[metric.unit]) && above(worsening, threshold * Math.abs(baseline));
};

const metricInfo = (metric: string): MetricInfo | undefined => (METRICS as Record<string, MetricInfo>)[metric];

export const compareResults = (baseline: Results, current: Results, threshold = REGRESSION_THRESHOLD): Comparison => {
  const changes: MetricChange[] = [];
  const notCompared: Comparison['not_compared'] = [];
  const scopeOf = (scope: string, base: Record<string, number | null>, now: Record<string, number | null>, only?: readonly string[]) => {
    for (const metric of only ?? [...new Set([...Object.keys(base), ...Object.keys(now)])]) {
      const b = base[metric] ?? null;
      const c = now[metric] ?? null;
      if (b === null && c === null) continue;
      const info = metricInfo(metric);
      if (!info || b === null || c === null) {
        notCompared.push({
          scope,
          metric,
          reason: !info ? 'not a metric of this version of the evals' : b === null ? 'not in the baseline' : 'not in this run',
        });
        continue;
      }
      const worsening = worseningOf(info.better, b, c);
      changes.push({
        scope,
        metric,
        better: info.better,
        unit: info.unit,
        baseline: b,
        current: c,
        worsening,
        relative: b === 0 ? null : worsening / Math.abs(b),
        regression: isRegression(info, b, c, threshold),
      });
    }
  };
  const fixtureSet = (results: Results, category?: string) =>
    results.fixtures
      .filter((f) => category === undefined || f.category === category)
      .map((f) => `${f.category}/${f.id}`)
      .sort()
      .join(',');
  const sameFixtures = (category?: string) => fixtureSet(baseline, category) === fixtureSet(current, category);
  if (sameFixtures()) scopeOf('run', baseline.metrics, current.metrics);
  else notCompared.push({ scope: 'run', metric: '*', reason: 'the runs cover different fixtures' });
  for (const category of new Set([...Object.keys(baseline.by_category), ...Object.keys(current.by_category)])) {
    const b = baseline.by_category[category];
    const c = current.by_category[category];
    if (b && c && sameFixtures(category)) scopeOf(category, b, c);
    else
      notCompared.push({
        scope: category,
        metric: '*',
        reason: !b ? 'category not in the baseline' : !c ? 'category not in this run' : 'the runs cover different fixtures',
      });
  }
  const currentFixtures = new Map(current.fixtures.map((f) => [`${f.category}/${f.id}`, f]));
  for (const b of baseline.fixtures) {
    const key = `${b.category}/${b.id}`;
    const c = currentFixtures.get(key);
    if (c) scopeOf(`fixture ${key}`, b.metrics, c.metrics, ['expectation_pass_rate']);
  }
  const promptChanges = [...new Set([...Object.keys(baseline.prompts), ...Object.keys(current.prompts)])]
    .filter((type) => baseline.prompts[type]?.sha256 !== current.prompts[type]?.sha256)
    .map((type) => ({
      prompt_type: type,
      baseline: baseline.prompts[type]?.version ?? null,
      current: current.prompts[type]?.version ?? null,
    }));
  return {
    regressions: changes.filter((c) => c.regression),
    changes,
    not_compared: notCompared,
    stale: current.fixtures.filter((f) => f.output.stale).map((f) => `${f.category}/${f.id}`),
    record_commands: recordCommands(current.fixtures, current.run.templates),
    prompt_changes: promptChanges.filter((p) => p.baseline !== null && p.current !== null),
  };
};

/** Whether the gate passes: nothing regressed and every answer was made from the prompt rendered now. */
export const comparisonPassed = (comparison: Comparison): boolean => comparison.regressions.length === 0 && comparison.stale.length === 0;
