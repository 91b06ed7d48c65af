/** The readable terminal summary of a run and of its comparison with a baseline (pure: returns text). */
import { REGRESSION_RULE, REGRESSION_THRESHOLD, type Comparison, type MetricChange } from './compare';
import { METRICS, type MetricInfo, type MetricUnit } from './metrics';
import { recordCommands } from './recordings';
import type { Results } from './results';

const pct = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)}%`);
const num = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : value.toFixed(2));
const inUnit = (unit: MetricUnit, value: number | null | undefined) => (unit === 'count' ? num(value) : pct(value));
const show = (metric: string, value: number | null | undefined) =>
  inUnit((METRICS as Record<string, MetricInfo>)[metric]?.unit ?? 'share', value);

/** One compared metric: `82.4% → 76.0% (7.8 % worse; higher is better)`. */
export const describeChange = (c: MetricChange): string => {
  const direction = c.worsening > 0 ? 'worse' : 'better';
  const how =
    c.worsening === 0
      ? 'unchanged'
      : c.relative === null
        ? `${inUnit(c.unit, Math.abs(c.worsening))} ${direction} from 0`
        : `${(Math.abs(c.relative) * 100).toFixed(1)} % ${direction}`;
  return `${inUnit(c.unit, c.baseline)} → ${inUnit(c.unit, c.current)} (${how}; ${c.better} is better)`;
};

/** The stale recordings and how to record them again. */
export const describeStale = (comparison: Pick<Comparison, 'stale' | 'record_commands'>): string[] => [
  `${comparison.stale.length} recording(s) answered another prompt than the one rendered now, so this run does not measure the current prompts: ${comparison.stale.join(', ')}`,
  'record them again with:',
  ...comparison.record_commands.map((c) => `  ${c.command}`),
];

const table = (rows: string[][]): string[] => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
};

export const formatSummary = (results: Results): string => {
  const lines: string[] = [];
  const { run, fixtures } = results;
  const categories = Object.keys(results.by_category);
  lines.push(
    `Prompt evaluation "${run.label}" — ${run.mode === 'offline' ? 'offline (recorded outputs, no judge)' : 'live (model + LLM judge)'}, templates: ${run.templates}`,
  );
  const perCategory = categories.map((c) => `${c} ${fixtures.filter((f) => f.category === c).length}`).join(', ');
  lines.push(
    `Fixtures run: ${fixtures.length}${perCategory ? ` (${perCategory})` : ''}; passed all expectations: ${fixtures.filter((f) => f.passed).length}`,
  );
  if (results.not_runnable.length > 0) {
    lines.push(`Not runnable (design-only, never executed): ${results.not_runnable.map((f) => `${f.id} [${f.analysis_type}]`).join(', ')}`);
  }
  const prompts = Object.entries(results.prompts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, p]) => `${type} v${p.version}`)
    .join(', ');
  if (prompts) lines.push(`Prompts: ${prompts}`);
  lines.push(`Models: ${results.models.analysis.join(', ') || '—'}${results.models.judge ? `; judge ${results.models.judge}` : ''}`);
  const standin = fixtures.filter((f) => f.output.standin).length;
  if (standin > 0) lines.push(`Note: ${standin} answer(s) came from the twin's Bedrock stand-in (extractive, labelled; not AI output).`);
  const stale = fixtures.filter((f) => f.output.stale);
  if (stale.length > 0) {
    lines.push(
      `Stale recordings (answered an older prompt; run ${recordCommands(fixtures, run.templates)
        .map((c) => `\`${c.command}\``)
        .join(', ')}): ${stale.map((f) => `${f.category}/${f.id}`).join(', ')}`,
    );
  }

  if (fixtures.length > 0) {
    lines.push('');
    const rows = [['metric', 'all', ...categories]];
    for (const metric of Object.keys(METRICS)) {
      const values = [results.metrics[metric], ...categories.map((c) => results.by_category[c]?.[metric])];
      if (values.every((v) => v === null || v === undefined)) continue;
      rows.push([metric, ...values.map((v) => show(metric, v))]);
    }
    lines.push(...table(rows));
    const levels = Object.entries(results.confidence_levels)
      .filter(([, n]) => n > 0)
      .map(([level, n]) => `${level} ${n}`)
      .join(', ');
    lines.push(`confidence levels: ${levels || '—'}`);
  }

  const errors = fixtures.filter((f) => f.output.error);
  if (errors.length > 0) {
    lines.push('', 'Model call failures:');
    for (const f of errors) lines.push(`  ${f.category}/${f.id}: ${f.output.error}`);
  }
  const failing = fixtures.filter((f) => f.expectations.some((e) => !e.passed));
  if (failing.length > 0) {
    lines.push('', 'Failed expectations:');
    for (const f of failing) {
      for (const e of f.expectations.filter((x) => !x.passed)) lines.push(`  ${f.category}/${f.id}  ${e.name}: ${e.detail}`);
    }
  }
  const judged = fixtures.filter((f) => f.judge_error);
  if (judged.length > 0) {
    lines.push('', 'Judge failures:');
    for (const f of judged) lines.push(`  ${f.category}/${f.id}: ${f.judge_error}`);
  }
  return lines.join('\n');
};

export const formatComparison = (comparison: Comparison, baselineFile: string, baseline: Results): string => {
  const lines = ['', `Compared with ${baselineFile} ("${baseline.run.label}", ${baseline.run.mode}, ${baseline.run.finished_at}):`];
  for (const p of comparison.prompt_changes) lines.push(`  prompt ${p.prompt_type}: v${p.baseline} → v${p.current} (text changed)`);
  if (comparison.regressions.length === 0) {
    lines.push(
      `  no metric regressed: none worse than the baseline by more than ${REGRESSION_THRESHOLD * 100} % (and its absolute floor); ${comparison.changes.length} compared`,
    );
  } else {
    lines.push(`  REGRESSION: ${comparison.regressions.length} metric(s) ${REGRESSION_RULE}:`);
    for (const r of comparison.regressions) lines.push(`    ${r.scope}  ${r.metric}: ${describeChange(r)}`);
  }
  if (comparison.stale.length > 0) {
    const [first, ...rest] = describeStale(comparison);
    lines.push(`  STALE: ${first}`, ...rest.map((line) => `    ${line}`));
  }
  const notCompared = comparison.not_compared.filter((n) => !n.scope.startsWith('fixture '));
  if (notCompared.length > 0) {
    lines.push(
      `  not compared: ${notCompared.map((n) => `${n.scope === 'run' ? '' : `${n.scope} `}${n.metric === '*' ? 'all metrics' : n.metric} (${n.reason})`).join(', ')}`,
    );
  }
  return lines.join('\n');
};
