/**
 * `npm run eval -- [options]`: the developers' prompt evaluation tool (SPEC part 10). See docs/evals.md.
 *
 * Exit codes: 0 the run finished and no metric regressed; 1 --compare flagged a regression or stale
 * recordings; 2 the run could not be made (bad option, fixture, recording or baseline; no model answered).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import type { Kysely } from 'kysely';
import type { AiGateway } from '#core/ai/gateway';
import type { Database } from '#core/db/schema';
import { TwinNotFoundError, useRunningTwinDatabase } from '../lib/twin/running';
import { compareResults, comparisonPassed } from './compare';
import {
  FixtureError,
  FIXTURES_DIR,
  loadFixtures,
  RUNNABLE_CATEGORIES,
  RUNNABLE_PROMPT_TYPES,
  selectFixtures,
  type Filters,
  type FixtureSet,
} from './fixtures';
import { junitXml } from './junit';
import type { OpenDatabase } from './live';
import { progressBar, type ProgressStream } from './progress';
import { recordFixtures } from './record';
import { loadRecordings, RECORDINGS_DIR, RecordingError } from './recordings';
import { databaseTemplates, seededTemplates, type TemplateSource, type Templates } from './render';
import { BaselineError, readBaseline, resultsJsonSchema } from './results';
import { recordedAnswers, runEvaluation, liveAnswers } from './runner';
import { formatComparison, formatSummary } from './summary';

export interface CliIo {
  stdout: ProgressStream;
  stderr: ProgressStream;
}

export interface CliDeps {
  fixturesDir?: string;
  recordingsDir?: string;
  /** the database of live runs and of --templates database (tests hand in a test database) */
  openDatabase?: OpenDatabase;
  now?: () => Date;
}

interface LiveContext {
  gateway: AiGateway;
  judgeModel: string;
}

/** A failure the user can fix: printed as one message, exit code 2. */
class UsageError extends Error {}

interface SelectionOptions {
  promptType?: string;
  category?: string;
  fixture?: string;
  templates: TemplateSource;
}
interface RunOptions extends SelectionOptions {
  offline?: boolean;
  compare?: string;
  version: string;
  output?: string;
  junit?: string;
}

/** `-` as a file name: standard output. */
const STDOUT = '-';

const selectionOptions = (command: Command): Command =>
  command
    .option(
      '--prompt-type <type>',
      `only fixtures of this prompt type (${RUNNABLE_PROMPT_TYPES.join(', ')}; a design-only type lists its future/ fixtures as not runnable)`,
    )
    .addOption(new Option('--category <name>', 'only fixtures of this category').choices(RUNNABLE_CATEGORIES))
    .option('--fixture <id>', 'only the fixture with this id')
    .addOption(
      new Option(
        '--templates <source>',
        "prompt templates: the newest seeded version (2, from migration 0010; no database), or the active versions of the configured database (DATABASE_URL, else the running twin's), whose AI quota and ledger live runs then share",
      )
        .choices(['seed', 'database'])
        .default('seed'),
    );

const filtersOf = (set: FixtureSet, options: SelectionOptions, fixturesDir: string): Filters => {
  const futureTypes = set.future.map((f) => f.analysis_type);
  if (
    options.promptType !== undefined &&
    !RUNNABLE_PROMPT_TYPES.includes(options.promptType) &&
    !futureTypes.includes(options.promptType)
  ) {
    throw new UsageError(
      `unknown --prompt-type '${options.promptType}'; runnable: ${RUNNABLE_PROMPT_TYPES.join(', ')}; design-only (listed, never run): ${futureTypes.join(', ') || 'none'}`,
    );
  }
  if (options.fixture !== undefined && ![...set.runnable, ...set.future].some((f) => f.id === options.fixture)) {
    throw new UsageError(`no fixture with id '${options.fixture}' under ${fixturesDir}`);
  }
  return { promptType: options.promptType, category: options.category, fixture: options.fixture };
};

export const main = async (
  argv: string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
  deps: CliDeps = {},
): Promise<number> => {
  let code = 0;
  const fixturesDir = deps.fixturesDir ?? FIXTURES_DIR;
  const recordingsDir = deps.recordingsDir ?? RECORDINGS_DIR;
  const say = (text: string): void => {
    io.stdout.write(`${text}\n`);
  };
  const openDb = async (configured: boolean) => {
    // --templates database with no database configured: the running twin's (lib/twin/running.ts)
    if (configured && !deps.openDatabase) useRunningTwinDatabase();
    return (deps.openDatabase ?? (await import('./live')).openEvalDatabase)(configured);
  };

  /** Runs `work` with the database and templates the options ask for; the database only when needed. */
  const withTemplates = async <T>(
    options: SelectionOptions,
    needGateway: boolean,
    work: (t: Templates, live: LiveContext | undefined) => Promise<T>,
  ): Promise<T> => {
    const configured = options.templates === 'database';
    if (!configured && !needGateway) return work(seededTemplates(), undefined);
    const handle = await openDb(configured);
    try {
      return await work(
        configured ? databaseTemplates(handle.db) : seededTemplates(),
        needGateway ? await liveContext(handle.db) : undefined,
      );
    } finally {
      await handle.close();
    }
  };
  const liveContext = async (db: Kysely<Database>): Promise<LiveContext> => {
    const { evalGateway, gatewayConfigFromEnv } = await import('./live');
    const config = gatewayConfigFromEnv();
    return { gateway: evalGateway(db, config), judgeModel: config.models.judge };
  };

  const program = new Command('eval')
    .description(
      "Evaluate the service's prompts against fixtures (developers only). Offline runs score recorded model outputs; live runs call the model and an LLM judge through the AI gateway.",
    )
    .exitOverride()
    // `record --category edge`: options after a subcommand are the subcommand's, not the run's
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError('(run with --help for the options)');

  selectionOptions(program)
    .option(
      '--offline',
      'structural metrics from the recorded outputs only: no model call, no judge, no AI credits, no network or credentials',
    )
    .option(
      '--compare <file>',
      'a baseline results file (from --output); exit code 1 when any metric got worse by more than 5 % of its baseline value (and more than its absolute floor), or a recording is stale',
    )
    .option('--version <label>', 'label of this run, kept in the results', 'local')
    .option(
      '--output <file>',
      'save the results (versioned JSON, see `eval schema`) to this file; `-`: to stdout, the summary then goes to stderr',
    )
    .option(
      '--junit <file>',
      'with --compare: write the comparison as JUnit XML for CI (a testcase per fixture and per metric); `-`: to stdout',
    )
    .addHelpText(
      'after',
      `
Without --offline every fixture costs two model calls (answer + judge) through the AI gateway: against
the twin's Bedrock stand-in when AWS_ENDPOINT_URL_BEDROCK_RUNTIME points at it, against Bedrock (AI credits)
otherwise. Fixtures: ${fixturesDir}/{basic,edge,adversarial,future}; future/ is never executed.
Exit codes: 0 no regression, 1 regression or stale recording flagged by --compare, 2 the run could not be made.`,
    )
    .action(async (options: RunOptions) => {
      if (options.junit !== undefined && options.compare === undefined)
        throw new UsageError('--junit reports the comparison with a baseline: give --compare <file> too');
      if (options.output === STDOUT && options.junit === STDOUT)
        throw new UsageError('--output - and --junit - cannot both have stdout: give one of them a file');
      // stdout carries a results file when asked to, and nothing else: the summary then goes to stderr
      const tell = options.output === STDOUT || options.junit === STDOUT ? (text: string) => io.stderr.write(`${text}\n`) : say;
      const emit = async (file: string, text: string): Promise<void> => {
        if (file === STDOUT) {
          io.stdout.write(text);
          return;
        }
        await mkdir(path.dirname(path.resolve(file)), { recursive: true });
        await writeFile(file, text);
      };
      const set = await loadFixtures(fixturesDir);
      const filters = filtersOf(set, options, fixturesDir);
      const selected = selectFixtures(set, filters);
      // read the baseline before any model call, so a bad file costs nothing
      const baseline = options.compare ? await readBaseline(options.compare) : undefined;
      const live = !options.offline && selected.runnable.length > 0;
      const results = await withTemplates(options, live, async (templates, ctx) => {
        // no gateway: offline, or a live run with nothing runnable (only design-only fixtures matched)
        const source = ctx
          ? liveAnswers(ctx.gateway, ctx.judgeModel)
          : {
              ...recordedAnswers(await loadRecordings(selected.runnable, recordingsDir)),
              mode: options.offline ? ('offline' as const) : ('live' as const),
            };
        return runEvaluation({
          selected,
          templates,
          source,
          label: options.version,
          filters,
          now: deps.now,
          progress: progressBar(selected.runnable.length, io.stderr, { lines: live }),
        });
      });
      if (options.output) await emit(options.output, `${JSON.stringify(results, null, 2)}\n`);
      tell(formatSummary(results));
      if (options.output && options.output !== STDOUT) tell(`\nResults saved to ${options.output}`);
      if (live && results.fixtures.every((f) => f.output.error)) {
        throw new UsageError(
          `no fixture got an answer from the model (first failure: ${results.fixtures[0]?.output.error}); check the Bedrock endpoint and credentials`,
        );
      }
      if (baseline && options.compare) {
        const comparison = compareResults(baseline, results);
        tell(formatComparison(comparison, options.compare, baseline));
        if (options.junit) {
          await emit(options.junit, junitXml(results, comparison, options.compare));
          if (options.junit !== STDOUT) tell(`JUnit report saved to ${options.junit}`);
        }
        if (!comparisonPassed(comparison)) code = 1;
      }
    });

  selectionOptions(program.command('record'))
    .description(
      "Ask the model (through the AI gateway: the twin's stand-in or Bedrock) for a fresh answer to each selected fixture and save it as the recording offline runs read",
    )
    .action(async (options: SelectionOptions) => {
      const set = await loadFixtures(fixturesDir);
      const { runnable } = selectFixtures(set, filtersOf(set, options, fixturesDir));
      if (runnable.length === 0) throw new UsageError('no runnable fixture matches the filters; nothing recorded');
      const report = await withTemplates(options, true, (templates, ctx) =>
        recordFixtures({
          fixtures: runnable,
          templates,
          gateway: ctx!.gateway,
          dir: recordingsDir,
          now: deps.now,
          progress: progressBar(runnable.length, io.stderr, { lines: true }),
        }),
      );
      say(`Recorded ${report.written.length} of ${runnable.length} fixture(s) into ${recordingsDir}`);
      for (const f of report.failed) say(`  failed ${f.fixture}: ${f.error}`);
      if (report.failed.length > 0) code = 2;
    });

  program
    .command('list')
    .description('List the fixtures, and the design-only ones that are never run')
    .action(async () => {
      const set = await loadFixtures(fixturesDir);
      for (const f of set.runnable) say(`${f.category.padEnd(12)} ${f.prompt_type.padEnd(22)} ${f.id} — ${f.description}`);
      for (const f of set.future)
        say(`${'future'.padEnd(12)} ${f.analysis_type.padEnd(22)} ${f.id} — not runnable (design-only): ${f.description}`);
    });

  program
    .command('schema')
    .description('Print the JSON Schema of the results file')
    .action(() => {
      say(JSON.stringify(resultsJsonSchema(), null, 2));
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (
      error instanceof UsageError ||
      error instanceof FixtureError ||
      error instanceof RecordingError ||
      error instanceof BaselineError ||
      error instanceof TwinNotFoundError
    ) {
      io.stderr.write(`eval: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 2;
  }
};

if (require.main === module) {
  // exit explicitly: keep-alive sockets of the SDK's HTTP agent would otherwise hold the process open
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
