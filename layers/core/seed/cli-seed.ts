/**
 * `npm run seed -- --file path.json` loads a seed file (docs/seed-format.md); `npm run seed -- --demo`
 * loads the demo data set when the database is still empty.
 *
 * The database is the configured one (DATABASE_URL, the deployed secret, or embedded PGlite in DATA_DIR),
 * migrated to the latest schema first. Files go to the FILES_BUCKET bucket when that is set. The file
 * is validated before the database is opened, so an invalid file changes nothing; a conflict with
 * existing rows also leaves everything as it was. Exit code 0 on success, 1 on any error.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command } from 'commander';
import type { Kysely } from 'kysely';
import { env, ENV } from '#core/config';
import { openDatabase, resolveTarget, type DatabaseTarget } from '#core/db/connection';
import { migrateToLatest } from '#core/db/migrate';
import { DEMO_SEED } from './demo';
import { validateSeed } from './format';
import { isSeeded, loadSeed, SEED_TABLES, SeedConflictError, SeedStorageError, SeedValidationError, type SeedSummary } from './load';
import { runningTwin } from '#core/db/embedded-lock';
import type { ObjectStorage } from '#core/storage';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** A problem worth one clear line (or block) on stderr and exit code 1, without a stack trace. */
export class CliError extends Error {}

/** A commander program that writes through `io` and throws instead of exiting (the operator commands share it). */
export const cliProgram = (name: string, io: CliIo): Command =>
  new Command(name).exitOverride().configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

/** Parses the arguments; an exit code when parsing ended the run (--help 0, a usage error 1, already printed). */
export const parseArguments = (program: Command, argv: string[]): number | undefined => {
  try {
    program.parse(argv, { from: 'user' });
    return undefined;
  } catch (error) {
    return (error as { exitCode?: number }).exitCode === 0 ? 0 : 1;
  }
};

export const runSeedCli = async (argv: string[], io: CliIo = processIo): Promise<number> => {
  const program = cliProgram('seed', io)
    .description(
      'Load organizations, users and investigations from a seed file (docs/seed-format.md) into the configured database. ' +
        'Into a deployed stage or the running twin instead: --stage <stage> [--region <r>] | --twin, with --file (docs/deploy.md).',
    )
    .option('-f, --file <path>', 'seed file (JSON) to load')
    .option('--demo', 'load the demo data set, if the database holds no organization yet')
    .option('--json', 'print the summary as JSON');
  const ended = parseArguments(program, argv);
  if (ended !== undefined) return ended;
  const opts = program.opts<{ file?: string; demo?: boolean; json?: boolean }>();

  try {
    if (Boolean(opts.file) === Boolean(opts.demo)) throw new CliError('give exactly one of --file <path> or --demo (see --help)');
    const input = opts.file ? await readSeedFile(opts.file) : DEMO_SEED;
    const source = opts.file ?? 'demo data set';

    // Validate before anything is opened or written.
    const validation = validateSeed(input);
    if (!validation.ok) throw new SeedValidationError(validation.issues);

    const target = await resolveTarget();
    if (target.engine === 'pglite') {
      const twin = runningTwin(target.dataDir);
      if (twin) {
        throw new CliError(
          `the local twin is running (process ${twin.pid}, ${twin.pidFile}) and holds the embedded database in ` +
            `${target.dataDir}: stop the twin first, or set DATABASE_URL to load into a PostgreSQL server`,
        );
      }
    }

    const storage = await configuredStorage(io);
    const handle = await openDatabase(target);
    try {
      await migrateToLatest(handle.db as Kysely<unknown>);
      if (opts.demo && (await isSeeded(handle.db))) {
        io.err(
          'the database already holds organizations: the demo data set was not loaded ' +
            '(load it explicitly with --file layers/core/seed/demo.json to see any conflicts)',
        );
        return 0;
      }
      const summary = await loadSeed(handle.db, input, { storage });
      if (opts.json) io.out(JSON.stringify(summary, null, 2));
      else printSummary(io, summary, source, describeTarget(target));
      return 0;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof SeedConflictError || error instanceof SeedStorageError) {
      io.err(`seed: ${error.message}`); // says itself that nothing was loaded
    } else if (error instanceof SeedValidationError || error instanceof CliError) {
      io.err(`seed: ${error.message}`);
      io.err('nothing was loaded');
    } else {
      io.err(`seed: failed, nothing was loaded: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    return 1;
  }
};

export const readSeedFile = async (path: string): Promise<unknown> => {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`seed file not found: ${resolve(path)}`);
    if (code === 'EISDIR') throw new CliError(`seed file is a directory, not a file: ${resolve(path)}`);
    throw new CliError(`cannot read seed file ${resolve(path)}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(raw.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new CliError(`seed file ${resolve(path)} is not valid JSON: ${(error as Error).message}`);
  }
};

/** S3 (or the twin's S3 stand-in) when FILES_BUCKET is set; otherwise no storage, with a note. */
const configuredStorage = async (io: CliIo): Promise<ObjectStorage | undefined> => {
  const bucket = env(ENV.filesBucket);
  if (!bucket) {
    io.err(
      'note: FILES_BUCKET is not set, so attachment and background-document files are not uploaded to storage ' +
        '(their text is still stored in the database)',
    );
    return undefined;
  }
  const { s3Storage } = await import('#core/storage');
  return s3Storage(bucket);
};

const describeTarget = (target: DatabaseTarget): string => {
  if (target.engine === 'pglite') return `embedded PGlite in ${resolve(target.dataDir)}`;
  const { host, database, connectionString } = target.config;
  if (connectionString) {
    try {
      const url = new URL(connectionString);
      return `PostgreSQL ${url.host}${url.pathname}`; // never the password
    } catch {
      return 'PostgreSQL (DATABASE_URL)';
    }
  }
  return `PostgreSQL ${host ?? ''}/${database ?? ''}`;
};

export const printSummary = (io: CliIo, summary: SeedSummary, source: string, where: string): void => {
  io.out(`Loaded ${source} into ${where}:`);
  for (const table of SEED_TABLES) io.out(`  ${table.padEnd(25)} ${String(summary.rows[table]).padStart(6)}`);
  io.out(`  ${'storage objects'.padEnd(25)} ${summary.storage_skipped ? ' (skipped)' : String(summary.storage_objects).padStart(6)}`);
  io.out('Organizations:');
  for (const org of summary.organizations) {
    io.out(`  ${org.id}  ${org.name}`);
    for (const inv of summary.investigations.filter((i) => i.organization_id === org.id)) io.out(`    ${inv.id}  ${inv.title}`);
  }
};

if (require.main === module) {
  runSeedCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`seed: ${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
