/**
 * The JUnit report of a comparison, parsed back as XML: one testsuite, a testcase per fixture and per
 * metric compared, failures for regressions and stale recordings, skips for what was not compared, and
 * any text (forged ids, quotes, control characters) escaped so the document stays well-formed.
 */
import { compareResults } from '../../evals/compare';
import { junitXml, xmlEscape } from '../../evals/junit';
import { evalResults, type FixtureRate } from '../support/eval-results';
import { descendants, parseXml } from '../support/xml';

const HOSTILE = 'x"<y>&amp;\'z\u0001';

const results = (metrics: Record<string, number | null>, fixtures: FixtureRate[]) =>
  evalResults(metrics, fixtures, { label: `label ${HOSTILE}`, finished_at: '2025-01-01T00:00:02.500Z' });

test('the test\'s XML reader is strict: a bare "&" or "<", an unknown entity, a control character or a wrong closing tag is refused', () => {
  expect(parseXml('<?xml version="1.0"?>\n<a b="&quot;&#60;&#x3E;"><c/>x &amp; y</a>\n')).toEqual({
    name: 'a',
    attributes: { b: '"<>' },
    children: [{ name: 'c', attributes: {}, children: [], text: '' }],
    text: 'x & y',
  });
  for (const bad of [
    '<a b="x & y"/>',
    '<a b="x < y"/>',
    '<a>1 < 2</a>',
    '<a>&nbsp;</a>',
    '<a>\u0001</a>',
    '<a><b></a>',
    '<a/><b/>',
    '<a b="1" b="2"/>',
  ]) {
    expect(() => parseXml(bad)).toThrow(/^XML: /);
  }
});

test('xmlEscape: the five special characters as entities, characters XML cannot carry as U+FFFD', () => {
  expect(xmlEscape(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
  expect(xmlEscape('tab\tnl\ncr\r bell\u0007 nul\u0000 lone\uD800 pair\u{1F600}')).toBe(
    'tab\tnl\ncr\r bell\uFFFD nul\uFFFD lone\uFFFD pair\u{1F600}',
  );
});

test('one testsuite: a testcase per fixture and per metric, failures for regressions and stale recordings, skips for what was not compared', () => {
  const baseline = results({ schema_valid_rate: 1, findings_per_answer: 3, citations_per_finding: 1, judge_accuracy: 0.8 }, [
    { id: 'steady', rate: 1 },
    { id: 'broken', rate: 1 },
    { id: HOSTILE, rate: 1 },
  ]);
  const current = results({ schema_valid_rate: 1, findings_per_answer: 1.5, citations_per_finding: 1, judge_accuracy: null }, [
    { id: 'steady', rate: 1 },
    { id: 'broken', rate: 0.5 },
    { id: HOSTILE, rate: 1, stale: true },
  ]);
  const root = parseXml(junitXml(current, compareResults(baseline, current), 'evals/baseline.json'));

  expect(root.name).toBe('testsuites');
  const suites = descendants(root, 'testsuite');
  expect(suites).toHaveLength(1);
  const cases = descendants(root, 'testcase');
  // 3 fixtures + 3 run metrics compared + judge_accuracy not compared
  expect(cases).toHaveLength(7);
  expect(descendants(root, 'failure')).toHaveLength(3);
  expect(descendants(root, 'skipped')).toHaveLength(1);
  expect(suites[0]!.attributes).toMatchObject({ tests: '7', failures: '3', errors: '0', skipped: '1', time: '2.5' });
  expect(suites[0]!.attributes.name).toBe('prompt evaluation "label x"<y>&amp;\'z\uFFFD" against evals/baseline.json');

  const failureOf = (name: string) => {
    const failure = descendants(cases.find((c) => c.attributes.name === name)!, 'failure')[0];
    return failure ? { message: failure.attributes.message, text: failure.text } : null;
  };
  expect(failureOf('edge/steady')).toBeNull();
  expect(failureOf('edge/broken')).toEqual({
    message: 'expectation_pass_rate regressed',
    text: 'expectation_pass_rate: 100.0% → 50.0% (50.0 % worse; higher is better)',
  });
  expect(failureOf('run findings_per_answer')).toMatchObject({
    message: 'findings_per_answer: 3.00 → 1.50 (50.0 % worse; higher is better)',
  });
  expect(failureOf('run citations_per_finding')).toBeNull();
  // the forged id comes back exactly as written (U+0001 aside), and its failure says how to record it again
  const stale = failureOf(`edge/${HOSTILE.replace('\u0001', '\uFFFD')}`);
  expect(stale?.message).toBe('stale recording');
  expect(stale?.text).toContain('record them again with:\n  npm run eval -- record --fixture x"<y>&amp;\'z\uFFFD');
  expect(cases.filter((c) => descendants(c, 'skipped').length > 0).map((c) => c.attributes.name)).toEqual(['run judge_accuracy']);
});
