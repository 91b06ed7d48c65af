/**
 * `npm run seed -- --stage <stage> --file <seed.json>` (or `--twin` for the running local twin): loads a
 * seed file through the `import-investigations` operator function, since a deployed database is not
 * reachable from outside (layers/core/seed/import.ts). The file is validated here first, so a bad file
 * is refused before anything is uploaded; then a presigned upload under imports/, then the load, in one
 * transaction. Embeddings follow through the normal sweeper.
 */
import { CliError, cliProgram, parseArguments, printSummary, readSeedFile, type CliIo } from '#core/seed/cli-seed';
import { formatIssues, validateSeed } from '#core/seed/format';
import type { SeedSummary } from '#core/seed/load';
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
    .option('--json', 'print the summary as JSON');
  const ended = parseArguments(program, argv);
  if (ended !== undefined) return ended;
  const opts = program.opts<{ stage?: string; region?: string; twin?: boolean; file: string; json?: boolean }>();
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
    const summary = await call<SeedSummary>({ command: 'load', key: upload.key });
    if (opts.json) io.out(JSON.stringify(summary, null, 2));
    else printSummary(io, summary, opts.file, where.describe);
    return 0;
  } catch (error) {
    io.err(
      `seed: ${error instanceof CliError || error instanceof OperatorCallError ? error.message : `failed: ${(error as Error).message}`}`,
    );
    io.err('nothing was loaded');
    return 1;
  }
};
