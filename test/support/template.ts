/**
 * Builds the PGlite templates the tests load (initdb in WASM takes seconds; loading a dump a fraction),
 * each once per change of what it is made from:
 * - the migrated template (TEMPLATE_PATH, template-paths.ts): the schema and nothing else, for the unit tests and for twins
 *   that start empty or seed without sweeping;
 * - the empty template (EMPTY_TEMPLATE_PATH): the cluster before any migration, for the tests of a database never
 *   migrated (a load costs about 0.4 CPU-seconds, PGlite's initdb about 1.6);
 * - the demo template (demoTemplatePath): the data directory and the files bucket (not the queues) as a twin
 *   leaves them after its start-up (demo data seeded, its evidence embedded by the start-up sweep), so a
 *   test twin with seeding and schedules on skips the seconds of CPU that sweep costs.
 * Run by global-setup in a tsx child process (the demo template with the argument `demo`, once the
 * deployment is rendered), because jest's globalSetup loads ESM-only kysely through plain require.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { openPglite } from '#core/db/pglite';
import { markUsed, pruneFolders } from '../../lib/twin/assembly/assembly';
import { migrateToLatest } from '#core/db/migrate';
import { DEMO_TEMPLATE_PREFIX, demoTemplatePath, EMPTY_TEMPLATE_PATH, TEMPLATE_PATH, TEMPLATES_DIR } from './template-paths';

/** Writes the template to a private name and renames it into place, so concurrent runs never load half of one. */
const saveTemplate = async (path: string, write: (partial: string) => Promise<void>): Promise<void> => {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.partial-${process.pid}`;
  await write(partial);
  await rename(partial, path).catch((error: NodeJS.ErrnoException) => {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(path)) throw error; // another run's landed first
  });
};

/** Uncompressed: a load skips the gunzip of 42 MB (a database opened from it costs about 460 ms of CPU, not 670). */
const dumpDatabase = async (pglite: PGlite, path: string): Promise<void> => {
  const dump = await pglite.dumpDataDir('none');
  await writeFile(path, Buffer.from(await dump.arrayBuffer()));
};

/** The empty template (a fresh cluster), then the migrated one (the same cluster migrated): one initdb for both. */
export const buildTemplate = async (): Promise<void> => {
  if (existsSync(TEMPLATE_PATH) && existsSync(EMPTY_TEMPLATE_PATH)) return;
  const pglite = await openPglite('memory://');
  if (!existsSync(EMPTY_TEMPLATE_PATH)) await saveTemplate(EMPTY_TEMPLATE_PATH, (partial) => dumpDatabase(pglite, partial));
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
  if (!existsSync(TEMPLATE_PATH)) {
    await migrateToLatest(db);
    await saveTemplate(TEMPLATE_PATH, (partial) => dumpDatabase(pglite, partial));
  }
  await db.destroy();
};

/**
 * What the start-up runs leave that is theirs, not the demo data's: the jobs' records and the retention
 * sweep's audit entry (a twin from the template writes its own), the AI ledger and the AI quota the
 * sweep used (a twin from the template finds the quota as a minute after the sweep, as the tests that
 * call models already arrange by clearing it).
 */
const START_UP_RUN_TABLES = ['job_runs', 'audit_log', 'ai_calls', 'ai_quota_reservations'] as const;

/** The file in which fauxqs (lib/twin/aws/local-aws.ts) keeps the twin's queues and buckets. */
const FAUXQS_DATABASE = 'fauxqs.db';

/**
 * Leaves the buckets in a copy of fauxqs's state and drops the queues (and topics): a twin creates its
 * queues at start only where none persist, with the attributes its own options give them (a test's
 * visibility timeout, say).
 */
const keepBucketsOnly = async (file: string): Promise<void> => {
  const { DatabaseSync } = await import('node:sqlite');
  const state = new DatabaseSync(file);
  try {
    const tables = state.prepare(`select name from sqlite_master where type = 'table' and name not glob 's3_*'`).all() as {
      name: string;
    }[];
    for (const { name } of tables) state.exec(`delete from "${name}"`);
  } finally {
    state.close();
  }
};

/**
 * Starts a test twin on the migrated template, lets its start-up runs finish, and keeps its database and bucket. A new
 * one is made for every change of the sources it is keyed by, so the oldest are removed: under the memory filesystem
 * jest.config.js puts the run's temporary folders on, a day of edits had left 33 (1.4 GB of the machine's memory).
 */
export const buildDemoTemplate = async (): Promise<void> => {
  const template = demoTemplatePath();
  const dir = dirname(template.pgdata);
  if (existsSync(dir)) {
    markUsed(dir);
    return;
  }
  const [{ startTwin }, { onlyRoutesInvoke, prepareTestTwin }] = await Promise.all([import('../../lib/twin/twin'), import('./twin')]);
  const twinDir = mkdtempSync(join(tmpdir(), 'ias-demo-template-'));
  try {
    const twin = await startTwin(prepareTestTwin({ databaseTemplate: TEMPLATE_PATH }, twinDir, undefined));
    try {
      await twin.schedulesSettled();
      // a twin whose change is to a function only routes invoke starts from this template (twin.ts): its start-up must not run one
      const ranRouteFunctions = twin.plan.functions.filter((fn) => onlyRoutesInvoke(fn.id) && twin.invocations(fn.id).length > 0);
      if (ranRouteFunctions.length > 0)
        throw new Error(`the demo start-up ran functions only routes invoke: ${ranRouteFunctions.map((fn) => fn.id).join(', ')}`);
    } finally {
      await twin.stop();
    }
    const pglite = await openPglite(join(twinDir, 'pgdata'));
    for (const table of START_UP_RUN_TABLES) await pglite.exec(`delete from ${table}`);
    await pglite.close();
    await saveTemplate(dir, async (partial) => {
      await mkdir(partial);
      cpSync(join(twinDir, 'pgdata'), join(partial, 'pgdata'), { recursive: true });
      cpSync(join(twinDir, 'aws'), join(partial, 'aws'), { recursive: true });
      await keepBucketsOnly(join(partial, 'aws', FAUXQS_DATABASE));
    });
    await pruneFolders(TEMPLATES_DIR, [DEMO_TEMPLATE_PREFIX]);
  } finally {
    rmSync(twinDir, { recursive: true, force: true });
  }
};

if (require.main === module) void (process.argv[2] === 'demo' ? buildDemoTemplate() : buildTemplate());
