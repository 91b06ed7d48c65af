/**
 * `--junit FILE`: the comparison with the baseline as JUnit XML, for CI test reports (pure: returns the
 * text). One testsuite; one testcase per fixture (fails when its recording is stale or its expectation
 * pass rate regressed) and one per run or category metric compared (fails when it regressed; skipped
 * when it could not be compared). A fixture failing its own expectations is not a failure here, as it
 * does not fail the gate: the pass rates are metrics, and the gate is the comparison.
 */
import { REGRESSION_RULE, type Comparison } from './compare';
import type { Results } from './results';
import { describeChange, describeStale } from './summary';

/**
 * Text for an attribute or element: the five special characters as entities, and the characters XML 1.0
 * cannot carry at all (control characters, lone surrogates) as U+FFFD, so any model or file text is safe.
 */
export const xmlEscape = (text: string): string =>
  text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

interface TestCase {
  classname: string;
  name: string;
  failure?: { message: string; details: string } | undefined;
  skipped?: string | undefined;
}

const testCaseXml = (t: TestCase): string => {
  const open = `    <testcase classname="${xmlEscape(t.classname)}" name="${xmlEscape(t.name)}"`;
  if (t.failure)
    return `${open}>\n      <failure message="${xmlEscape(t.failure.message)}" type="regression">${xmlEscape(t.failure.details)}</failure>\n    </testcase>`;
  if (t.skipped !== undefined) return `${open}>\n      <skipped message="${xmlEscape(t.skipped)}"/>\n    </testcase>`;
  return `${open}/>`;
};

export const junitXml = (results: Results, comparison: Comparison, baselineFile: string): string => {
  const cases: TestCase[] = [];
  for (const f of results.fixtures) {
    const key = `${f.category}/${f.id}`;
    const problems: { message: string; details: string }[] = [];
    if (f.output.stale) {
      const commands = comparison.record_commands.filter((c) => c.fixtures.includes(key));
      problems.push({ message: 'stale recording', details: describeStale({ stale: [key], record_commands: commands }).join('\n') });
    }
    for (const r of comparison.regressions.filter((c) => c.scope === `fixture ${key}`)) {
      problems.push({ message: `${r.metric} regressed`, details: `${r.metric}: ${describeChange(r)}` });
    }
    cases.push({
      classname: `eval.fixture.${f.category}`,
      name: key,
      failure:
        problems.length === 0
          ? undefined
          : { message: problems.map((p) => p.message).join('; '), details: problems.map((p) => p.details).join('\n') },
    });
  }
  for (const c of comparison.changes.filter((x) => !x.scope.startsWith('fixture '))) {
    cases.push({
      classname: `eval.metric.${c.scope}`,
      name: `${c.scope} ${c.metric}`,
      failure: c.regression ? { message: `${c.metric}: ${describeChange(c)}`, details: `a regression is ${REGRESSION_RULE}` } : undefined,
    });
  }
  for (const n of comparison.not_compared.filter((x) => !x.scope.startsWith('fixture '))) {
    cases.push({
      classname: `eval.metric.${n.scope}`,
      name: `${n.scope} ${n.metric === '*' ? 'all metrics' : n.metric}`,
      skipped: n.reason,
    });
  }
  const failures = cases.filter((t) => t.failure).length;
  const skipped = cases.filter((t) => t.skipped !== undefined).length;
  const seconds = (Date.parse(results.run.finished_at) - Date.parse(results.run.started_at)) / 1000;
  const suite = `prompt evaluation "${results.run.label}" against ${baselineFile}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}" timestamp="${xmlEscape(results.run.started_at)}">`,
    ...cases.map(testCaseXml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
};
