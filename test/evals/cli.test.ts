/**
 * The evaluation CLI offline, in process (fast) and once as `npm run eval -- --offline` in a clean
 * environment: filters, results file (to a file or stdout), design-only fixtures listed and never
 * executed, baselines (regression and stale-recording exit code, JUnit report, malformed files), missing
 * or stale recordings, malformed fixtures.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { main, type CliDeps } from '../../evals/cli';
import { loadFixtures, FIXTURES_DIR } from '../../evals/fixtures';
import { progressBar } from '../../evals/progress';
import { RECORDINGS_DIR } from '../../evals/recordings';
import { resultsSchema, type Results } from '../../evals/results';
import { runEvaluation, type AnswerSource } from '../../evals/runner';
import { seededTemplates } from '../../evals/render';
import { designOnlyType } from '#core/analysis/selection';
import { descendants, parseXml } from '../support/xml';

const ROOT = path.join(__dirname, '..', '..');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'evals-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = async (argv: string[], deps: CliDeps = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: { write: (s) => out.push(s) }, stderr: { write: (s) => err.push(s) } }, deps);
  return { code, stdout: out.join(''), stderr: err.join('') };
};

const readResults = async (file: string): Promise<Results> => resultsSchema.parse(JSON.parse(await readFile(file, 'utf8')));

test('`npm run eval -- --offline` passes with no network, credentials or database configured, and holds to the committed baseline', async () => {
  // no credentials; a database and a Bedrock endpoint that refuse connections: touching either would fail the run
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://127.0.0.1:9',
  };
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'eval', '--', '--offline', '--compare', 'evals/baseline.json'], {
    cwd: ROOT,
    env,
    timeout: 20_000,
  });
  expect(stdout).toMatch(/Prompt evaluation "local" — offline/);
  expect(stdout).toMatch(/Fixtures run: \d+ \(basic \d+, edge \d+, adversarial \d+\)/);
  expect(stdout).toContain('Not runnable (design-only, never executed): comparative-analysis');
  expect(stdout).toContain('no metric regressed: none worse than the baseline by more than 5 %');
}, 25_000);

test('the fixtures: at least 8 basic, 6 edge, 6 adversarial, and the four design-only types, each refused by the service', async () => {
  const { runnable, future } = await loadFixtures();
  const count = (category: string) => runnable.filter((f) => f.category === category).length;
  expect(count('basic')).toBeGreaterThanOrEqual(8);
  expect(count('edge')).toBeGreaterThanOrEqual(6);
  expect(count('adversarial')).toBeGreaterThanOrEqual(6);
  expect(future.map((f) => designOnlyType(f.analysis_type)).sort()).toEqual([
    'Comparative Analysis',
    'Risk Assessment',
    'Timeline Analysis',
    'Witness Credibility',
  ]);
});

test('a full offline run writes a versioned results file, identical on every run but for the timestamps', async () => {
  const [a, b] = [path.join(dir, 'a.json'), path.join(dir, 'b.json')];
  expect((await run(['--offline', '--version', 'run-a', '--output', a])).code).toBe(0);
  expect((await run(['--offline', '--version', 'run-a', '--output', b])).code).toBe(0);
  const [first, second] = [await readResults(a), await readResults(b)];
  expect(first.run).toMatchObject({ label: 'run-a', mode: 'offline', templates: 'seed' });
  expect(first.models.judge).toBeNull();
  expect(first.prompts.analysis_question).toEqual({ version: 2, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  expect(first.not_runnable.map((f) => f.id).sort()).toEqual([
    'comparative-analysis',
    'risk-assessment',
    'timeline-analysis',
    'witness-credibility',
  ]);
  const withoutTimes = (r: Results) => ({ ...r, run: { ...r.run, started_at: '', finished_at: '' } });
  expect(withoutTimes(second)).toEqual(withoutTimes(first));
});

test('filters: --prompt-type and --category select exactly their fixtures', async () => {
  const { runnable } = await loadFixtures();
  const file = path.join(dir, 'filtered.json');
  expect((await run(['--offline', '--prompt-type', 'analysis_question', '--output', file])).code).toBe(0);
  const questions = await readResults(file);
  expect(questions.fixtures.map((f) => f.id).sort()).toEqual(
    runnable
      .filter((f) => f.prompt_type === 'analysis_question')
      .map((f) => f.id)
      .sort(),
  );
  expect(questions.not_runnable).toEqual([]);

  expect((await run(['--offline', '--category', 'edge', '--prompt-type', 'analysis_question', '--output', file])).code).toBe(0);
  const edgeQuestions = await readResults(file);
  expect(edgeQuestions.fixtures.length).toBeGreaterThan(0);
  expect(edgeQuestions.fixtures.every((f) => f.category === 'edge' && f.prompt_type === 'analysis_question')).toBe(true);
  expect(Object.keys(edgeQuestions.by_category)).toEqual(['edge']);
  expect(edgeQuestions.run.filters).toEqual({ prompt_type: 'analysis_question', category: 'edge', fixture: null });
});

test('bad filters are refused with the allowed values', async () => {
  const type = await run(['--offline', '--prompt-type', 'analysis_poem']);
  expect(type.code).toBe(2);
  expect(type.stderr).toMatch(
    /unknown --prompt-type 'analysis_poem'; runnable: analysis_question, .*design-only \(listed, never run\): .*timeline_analysis/,
  );
  const category = await run(['--offline', '--category', 'future']);
  expect(category.code).toBe(2);
  expect(category.stderr).toMatch(/Allowed choices are basic, edge, adversarial/);
  expect(type.stdout + category.stdout).toBe('');
});

describe('design-only fixtures are never executed', () => {
  test('selecting a design-only type lists it as not runnable; no database or model is touched', async () => {
    const openDatabase = jest.fn(async () => {
      throw new Error('must not be opened');
    });
    const { code, stdout } = await run(['--prompt-type', 'timeline_analysis'], { openDatabase });
    expect(code).toBe(0);
    expect(openDatabase).not.toHaveBeenCalled();
    expect(stdout).toContain('Fixtures run: 0');
    expect(stdout).toContain('Not runnable (design-only, never executed): timeline-analysis [timeline_analysis]');
  });

  test('the runner asks for answers to runnable fixtures only', async () => {
    const set = await loadFixtures();
    const asked: string[] = [];
    const source: AnswerSource = {
      mode: 'live',
      judgeModel: 'judge-model',
      answer: async (fixture) => {
        asked.push(fixture.id);
        return { text: 'not json', model_id: 'm', standin: false, recorded_at: null, stale: false };
      },
      judge: async () => {
        throw new Error('not reached: unreadable answers are not judged');
      },
    };
    const results = await runEvaluation({ selected: set, templates: seededTemplates(), source, label: 't', filters: {} });
    expect(asked.sort()).toEqual(set.runnable.map((f) => f.id).sort());
    expect(asked.some((id) => set.future.some((f) => f.id === id))).toBe(false);
    expect(results.not_runnable).toHaveLength(set.future.length);
    expect(results.metrics.json_parse_rate).toBe(0);
  });
});

describe('--compare', () => {
  let baselineFile: string;
  let baseline: Results;
  beforeAll(async () => {
    baselineFile = path.join(dir, 'baseline.json');
    await run(['--offline', '--category', 'basic', '--output', baselineFile]);
    baseline = await readResults(baselineFile);
  });

  /** The baseline edited (this run scores the same as the baseline unedited). */
  const edited = async (name: string, edit: (metrics: Results['metrics']) => void) => {
    const file = path.join(dir, `${name}.json`);
    const copy = structuredClone(baseline);
    edit(copy.metrics);
    await writeFile(file, JSON.stringify(copy));
    return file;
  };
  /** The baseline with its run-level expectation_pass_rate set so that this run's is `share` below it. */
  const raised = (share: number) =>
    edited(`raised-${share}`, (m) => {
      m.expectation_pass_rate = baseline.metrics.expectation_pass_rate! / (1 - share);
    });

  test('worse by more than 5 % of the baseline value exits 1 naming the metric; exactly 5 % exits 0', async () => {
    const flagged = await run(['--offline', '--category', 'basic', '--compare', await raised(0.06)]);
    expect(flagged.code).toBe(1);
    expect(flagged.stdout).toMatch(
      /REGRESSION: 1 metric\(s\) worse than the baseline by more than 5 % of the baseline value and by more than 1 percentage point \(shares\) or 0\.05 \(counts\):\n {4}run {2}expectation_pass_rate: .* \(6\.0 % worse; higher is better\)/,
    );
    const fine = await run(['--offline', '--category', 'basic', '--compare', await raised(0.05)]);
    expect(fine.code).toBe(0);
    expect(fine.stdout).toContain('no metric regressed');
  });

  test('every metric is held to its direction: halving the findings per answer is a regression', async () => {
    const doubled = await edited('doubled-findings', (m) => {
      m.findings_per_answer = baseline.metrics.findings_per_answer! * 2;
    });
    const result = await run(['--offline', '--category', 'basic', '--compare', doubled]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/run {2}findings_per_answer: \d+\.\d\d → \d+\.\d\d \(50\.0 % worse; higher is better\)/);
  });

  test('--junit writes the comparison as JUnit XML: a testcase per fixture and per metric, a failure per regression', async () => {
    const junit = path.join(dir, 'reports', 'junit.xml');
    const result = await run(['--offline', '--category', 'basic', '--compare', await raised(0.06), '--junit', junit]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`JUnit report saved to ${junit}`);
    const root = parseXml(await readFile(junit, 'utf8'));
    const cases = descendants(root, 'testcase');
    expect(descendants(root, 'testsuite')).toHaveLength(1);
    expect(cases.filter((t) => t.attributes.classname === 'eval.fixture.basic')).toHaveLength(baseline.fixtures.length);
    expect(cases.filter((t) => descendants(t, 'failure').length > 0).map((t) => t.attributes.name)).toEqual(['run expectation_pass_rate']);
  });

  test('--junit without --compare is refused before the run', async () => {
    const result = await run(['--offline', '--junit', path.join(dir, 'junit.xml')]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain('--junit reports the comparison with a baseline: give --compare <file> too');
  });

  test.each([
    ['not JSON', '{"schema_version": 1,', /the baseline .* is not valid JSON/],
    [
      'another schema version',
      JSON.stringify({ schema_version: 2, metrics: {} }),
      /is not a results file of schema_version 1 \(found 2\); produce one with --output/,
    ],
    [
      'a summary, not results',
      JSON.stringify({ schema_version: 1, metrics: { schema_valid_rate: 'high' } }),
      /is not a valid results file: run: .*metrics\.schema_valid_rate/,
    ],
  ])('a malformed baseline (%s) is refused before the run, exit code 2', async (_, content, message) => {
    const file = path.join(dir, 'malformed.json');
    await writeFile(file, content);
    const result = await run(['--offline', '--compare', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  test('a missing baseline file says so', async () => {
    const result = await run(['--offline', '--compare', path.join(dir, 'nope.json')]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/cannot read the baseline .*nope\.json: ENOENT/);
  });
});

describe('recordings', () => {
  test('a missing recording stops an offline run and says how to record it', async () => {
    const empty = path.join(dir, 'no-recordings');
    const result = await run(['--offline', '--category', 'edge'], { recordingsDir: empty });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/edge\/contradictory-amounts-topic: no recording[\s\S]*npm run eval -- record/);
  });

  test('a recording made from another prompt is reported as stale, and fails --compare naming the command that records it again', async () => {
    const copy = path.join(dir, 'recordings');
    await cp(RECORDINGS_DIR, copy, { recursive: true });
    const file = path.join(copy, 'basic', 'question-duplicate-payment.json');
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), prompt_sha256: 'older' }));
    const out = path.join(dir, 'stale.json');
    const result = await run(['--offline', '--category', 'basic', '--output', out], { recordingsDir: copy });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Stale recordings (answered an older prompt; run `npm run eval -- record --fixture question-duplicate-payment`): basic/question-duplicate-payment',
    );
    expect((await readResults(out)).fixtures.filter((f) => f.output.stale).map((f) => f.id)).toEqual(['question-duplicate-payment']);

    // the same run against a baseline of itself: no metric moved, yet the gate fails
    const compared = await run(['--offline', '--category', 'basic', '--compare', out], { recordingsDir: copy });
    expect(compared.code).toBe(1);
    expect(compared.stdout).toContain('no metric regressed');
    expect(compared.stdout).toContain(
      [
        '  STALE: 1 recording(s) answered another prompt than the one rendered now, so this run does not measure the current prompts: basic/question-duplicate-payment',
        '    record them again with:',
        '      npm run eval -- record --fixture question-duplicate-payment',
      ].join('\n'),
    );
  });
});

test.each([
  [
    'a field of the wrong type',
    (f: Record<string, unknown>) => ({ ...f, expectations: { must_cite: 'yes' } }),
    /empty-linking-question\.json: expectations\.must_cite: Invalid input: expected boolean/,
  ],
  [
    'a question analysis without its question',
    (f: Record<string, unknown>) => ({ ...f, question: undefined }),
    /empty-linking-question\.json: question: is required for analysis_question/,
  ],
])('a malformed fixture (%s) stops the run naming its file and field', async (_, edit, message) => {
  const fixtures = path.join(dir, 'fixtures');
  await cp(FIXTURES_DIR, fixtures, { recursive: true });
  const file = path.join(fixtures, 'edge', 'empty-linking-question.json');
  await writeFile(file, JSON.stringify(edit(JSON.parse(await readFile(file, 'utf8')))));
  const result = await run(['--offline'], { fixturesDir: fixtures });
  expect(result).toMatchObject({ code: 2, stdout: '' });
  expect(result.stderr).toMatch(message);
});

test('--output - writes the results JSON to stdout and nothing else; the summary goes to stderr', async () => {
  const result = await run(['--offline', '--category', 'edge', '--output', '-', '--compare', path.join(ROOT, 'evals', 'baseline.json')]);
  expect(result.code).toBe(0);
  const results = resultsSchema.parse(JSON.parse(result.stdout));
  expect(results.fixtures.every((f) => f.category === 'edge')).toBe(true);
  expect(result.stderr).toMatch(/Prompt evaluation "local" — offline[\s\S]*Compared with .*baseline\.json/);
  expect(result.stderr).not.toContain('Results saved to');
  await expect(readFile(path.join(process.cwd(), '-'))).rejects.toMatchObject({ code: 'ENOENT' });

  const both = await run(['--offline', '--output', '-', '--compare', path.join(ROOT, 'evals', 'baseline.json'), '--junit', '-']);
  expect(both).toMatchObject({ code: 2, stdout: '' });
  expect(both.stderr).toContain('--output - and --junit - cannot both have stdout');
});

test('--help explains every option; `schema` prints the results JSON Schema', async () => {
  const help = await run(['--help']);
  expect(help.code).toBe(0);
  for (const option of [
    '--offline',
    '--prompt-type <type>',
    '--category <name>',
    '--compare <file>',
    '--version <label>',
    '--output <file>',
    '--junit <file>',
    'record',
  ]) {
    expect(help.stdout).toContain(option);
  }
  const schema = await run(['schema']);
  expect(JSON.parse(schema.stdout).properties.schema_version).toEqual({ type: 'number', const: 1 });
});

test('the progress bar redraws one line on a terminal, and prints a line per item in logs only when asked', () => {
  const written = (isTTY: boolean, lines: boolean) => {
    const out: string[] = [];
    const bar = progressBar(2, { isTTY, write: (s) => out.push(s) }, { lines });
    bar.tick('basic/a');
    bar.tick('basic/b');
    bar.done();
    return out;
  };
  const tty = written(true, false);
  expect(tty[0]).toMatch(/^\r\[-{24}\] 0\/2/);
  expect(tty[2]).toMatch(/^\r\[#{24}\] 2\/2 basic\/b/);
  expect(tty.at(-1)).toBe('\n');
  expect(written(false, true)).toEqual(['[1/2] basic/a\n', '[2/2] basic/b\n']);
  expect(written(false, false)).toEqual([]);
});
