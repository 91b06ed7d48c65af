/**
 * `npm run seed -- --stage <stage> --file <seed.json>` (or `--twin` for the running local twin): loads a
 * seed file through the `import-investigations` operator function, since a deployed database is not
 * reachable from outside (layers/core/seed/import.ts). The file is validated here first, so a bad file
 * is refused before anything is uploaded; then a presigned upload under seeds/, then the load: the
 * organizations, people and investigations in one transaction, and each investigation's evidence as a
 * bulk import the import worker processes — the path an investigator's import takes. The command waits
 * for the imports (unless --no-wait), printing their progress; embeddings follow as for any evidence.
 */
import { CliError, cliProgram, parseArguments, printSummary, readSeedFile, type CliIo } from '#core/seed/cli-seed';
import { formatIssues, validateSeed } from '#core/seed/format';
import type { ImportState, LoadSummary } from '#core/seed/import';
import { OperatorCallError, operatorTarget } from './invoke';

type Answer<T> = { ok: true; result: T } | { ok: false; error: string };

const processIo: CliIo = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

/** Whether the arguments ask for the remote load (a stage or the running twin), not the local database. */
export const wantsImport = (argv: string[]): boolean => argv.some((a) => a === '--twin' || a === '--stage' || a.startsWith('--stage='));

export const runImportCli = async (argv: string[], io: CliIo = processIo, target?: { twinDir?: string }): Promise<number> => {
  const program = cliProgram('seed', io)
    .description(
      'Load a seed file into a deployed stage (--stage) or the running local twin (--twin), through its import-investigations function',
    )
    .option('--stage <stage>', 'the deployed stage (dev or prod)')
    .option('--region <region>', 'AWS region of the stage (default: the AWS CLI configuration)')
    .option('--twin', 'the running local twin (npm start)')
    .requiredOption('-f, --file <path>', 'seed file (JSON) to load')
    .option('--json', 'print the summary as JSON')
    .option('--no-wait', 'return once the imports have started, without waiting for them');
  const ended = parseArguments(program, argv);
  if (ended !== undefined) return ended;
  const opts = program.opts<{ stage?: string; region?: string; twin?: boolean; file: string; json?: boolean; wait: boolean }>();
  try {
    if (Boolean(opts.stage) === Boolean(opts.twin)) throw new CliError('give exactly one of --stage <stage> or --twin');
    const input = await readSeedFile(opts.file);
    const validation = validateSeed(input);
    if (!validation.ok) throw new CliError(`${opts.file} is not a valid seed file:\n${formatIssues(validation.issues)}`);

    const where = operatorTarget({ ...(opts.stage && { stage: opts.stage }), ...(opts.region && { region: opts.region }), ...target });
    const call = async <T>(payload: unknown): Promise<T> => {
      const answer = (await where.invoke('import-investigations', payload)) as Answer<T>;
      if (!answer.ok) throw new CliError(`refused: ${answer.error}`);
      return answer.result;
    };
    const upload = await call<{ key: string; url: string }>({ command: 'upload-url' });
    await where.upload(upload.url, JSON.stringify(input), 'application/json');
    const summary = await call<LoadSummary>({ command: 'load', key: upload.key });
    if (!opts.json) printSummary(io, summary, opts.file, where.describe);
    const ids = summary.imports.map((i) => i.import_id);
    const imports =
      opts.wait && ids.length > 0
        ? await waitForImports(io, (import_ids) => call<ImportState[]>({ command: 'status', import_ids }), ids, !opts.json)
        : [];
    if (opts.json) io.out(JSON.stringify({ ...summary, import_states: imports }, null, 2));
    const failed = imports.filter((i) => i.status === 'failed' || i.lines_failed > 0);
    for (const i of failed)
      io.err(`seed: import ${i.import_id} (investigation ${i.investigation_id}): ${i.error ?? `${i.lines_failed} entries refused`}`);
    return failed.length > 0 ? 1 : 0;
  } catch (error) {
    io.err(
      `seed: ${error instanceof CliError || error instanceof OperatorCallError ? error.message : `failed: ${(error as Error).message}`}`,
    );
    io.err('nothing was loaded');
    return 1;
  }
};

/** Polls the imports until none is queued or processing, printing each one's progress when it moves. */
const waitForImports = async (
  io: CliIo,
  status: (ids: string[]) => Promise<ImportState[]>,
  ids: string[],
  print: boolean,
  pollMs = 2_000,
  timeoutMs = 15 * 60_000,
): Promise<ImportState[]> => {
  const shown = new Map<string, string>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await status(ids);
    for (const s of states) {
      const line = `  import ${s.import_id}: ${s.status}, ${s.lines_done}/${s.lines_total ?? '?'} entries${s.lines_failed ? `, ${s.lines_failed} refused` : ''}`;
      if (print && shown.get(s.import_id) !== line) io.out(line);
      shown.set(s.import_id, line);
    }
    if (states.every((s) => s.status === 'complete' || s.status === 'failed')) return states;
    if (Date.now() > deadline)
      throw new CliError(
        `the imports are still being processed after ${timeoutMs / 60_000} minutes: they go on in the background ` +
          '(their progress: GET /api/investigations/{investigation_id}/imports/{import_id})',
      );
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
};
