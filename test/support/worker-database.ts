/**
 * One migrated PGlite per jest worker, lent to its test files one after another (./environment.ts holds it: jest loads
 * a test environment's module once per worker, outside the files' own module registries). Opening PGlite from the
 * template costs a test file about 1.5 CPU-seconds under jest (its 40 MB data directory copied and unpacked, the
 * WASM module compiled, PostgreSQL started); lending one costs a reset. The file reaches it as the functions reach
 * the twin's database: PostgreSQL's wire protocol (lib/twin/database/pglite-server.ts), the `pg` driver, a pool.
 *
 * Between files the database goes back to the template's state: its tables emptied and their template rows put back,
 * sequences and planner statistics as the template had them, the session's settings discarded. A file that changed
 * what a reset does not restore (the schema, roles, extensions, functions, the database's settings: a fingerprint of
 * the catalogs tells) gets a database opened afresh from the template instead.
 */
import { readFile } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { openPglite } from '#core/db/pglite';
import { startPgliteServer, type PgliteServer } from '../../lib/twin/database/pglite-server';
import { TEMPLATE_PATH } from './template-paths';

/** What a reset does not restore; a file that changed any of it leaves a database to be replaced. */
const FINGERPRINT = `
  select md5(concat_ws('|',
    (select string_agg(format('%s.%s:%s', n.nspname, c.relname, c.relkind), ',' order by n.nspname, c.relname)
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'),
    (select string_agg(format('%s.%s:%s:%s:%s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
            pg_get_expr(d.adbin, d.adrelid)), ',' order by a.attrelid::regclass::text, a.attnum)
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped),
    (select string_agg(pg_get_indexdef(i.indexrelid), ',' order by i.indexrelid::regclass::text)
       from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'),
    (select string_agg(format('%s:%s', conname, pg_get_constraintdef(oid)), ',' order by conrelid::regclass::text, conname)
       from pg_constraint where connamespace = 'public'::regnamespace),
    (select string_agg(format('%s:%s:%s', tgrelid::regclass, tgname, tgenabled), ',' order by tgrelid::regclass::text, tgname)
       from pg_trigger where not tgisinternal),
    (select string_agg(format('%s:%s', p.oid::regprocedure, md5(p.prosrc)), ',' order by p.oid::regprocedure::text)
       from pg_proc p where p.pronamespace = 'public'::regnamespace),
    (select string_agg(format('%s:%s:%s', rolname, rolsuper, rolcanlogin), ',' order by rolname) from pg_roles),
    (select string_agg(format('%s:%s', extname, extversion), ',' order by extname) from pg_extension),
    (select string_agg(array_to_string(setconfig, ';'), ',' order by setdatabase, setrole) from pg_db_role_setting),
    (select string_agg(format('%s:%s', polrelid::regclass, polname), ',' order by polrelid::regclass::text, polname) from pg_policy)
  )) as fingerprint`;

interface Snapshot {
  fingerprint: string;
  tables: string[];
  /** the template's rows, by table, to put back after emptying (a migration's seed rows) */
  rows: Map<string, { columns: string[]; json: string }>;
  sequences: { name: string; last_value: string; is_called: boolean }[];
}

interface Held {
  pglite: PGlite;
  server: PgliteServer;
  snapshot: Snapshot;
}

const open = async (): Promise<Held> => {
  const pglite = await openPglite('memory://', new Blob([await readFile(TEMPLATE_PATH)]));
  const { rows: tables } = await pglite.query<{ name: string }>(
    `select quote_ident(relname) as name from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') order by relname`,
  );
  // as PostgreSQL writes them in JSON, which json_populate_recordset reads back whatever the column types
  const rows = new Map<string, { columns: string[]; json: string }>();
  for (const { name } of tables) {
    const { rows: kept } = await pglite.query<{ json: string | null; columns: string[] }>(
      `select json_agg(t)::text as json, (select array_agg(quote_ident(attname) order by attnum) from pg_attribute
         where attrelid = '${name}'::regclass and attnum > 0 and not attisdropped and attgenerated = '') as columns from ${name} t`,
    );
    if (kept[0]!.json) rows.set(name, { columns: kept[0]!.columns, json: kept[0]!.json });
  }
  const { rows: sequences } = await pglite.query<Snapshot['sequences'][number]>(
    `select format('%I.%I', schemaname, sequencename) as name, coalesce(last_value, 1)::text as last_value, last_value is not null as is_called
       from pg_sequences where schemaname = 'public'`,
  );
  const { rows: printed } = await pglite.query<{ fingerprint: string }>(FINGERPRINT);
  const server = await startPgliteServer(pglite, { unref: true });
  return { pglite, server, snapshot: { fingerprint: printed[0]!.fingerprint, tables: tables.map((t) => t.name), rows, sequences } };
};

/** Back to the template's state; false when the file changed what a reset cannot restore. */
const reset = async ({ pglite, snapshot }: Held): Promise<boolean> => {
  if (pglite.isInTransaction()) await pglite.exec('rollback');
  await pglite.exec('discard all');
  const { rows } = await pglite.query<{ fingerprint: string }>(FINGERPRINT);
  if (rows[0]!.fingerprint !== snapshot.fingerprint) return false;
  await pglite.transaction(async (tx) => {
    await tx.exec(`truncate ${snapshot.tables.join(', ')} restart identity cascade`);
    for (const [table, { columns, json }] of snapshot.rows)
      await tx.query(
        `insert into ${table} (${columns.join(', ')}) overriding system value
           select ${columns.join(', ')} from json_populate_recordset(null::${table}, $1)`,
        [json],
      );
    for (const { name, last_value, is_called } of snapshot.sequences)
      await tx.query(`select setval($1, $2, $3)`, [name, last_value, is_called]);
    await tx.exec(`delete from pg_statistic where starelid in (select oid from pg_class where relnamespace = 'public'::regnamespace)`);
  });
  return true;
};

let held: Promise<Held> | undefined;
let lent = false;
let used = false;

/**
 * The worker's database for one test file, as a connection URL, or undefined while another holder has it (a file
 * that opens a second database at once opens its own). `release` ends the loan; the next one resets it first.
 */
export const borrowWorkerDatabase = async (): Promise<{ url: string; release: () => void } | undefined> => {
  if (lent) return undefined;
  lent = true;
  try {
    held ??= open();
    let current = await held;
    if (used && !(await reset(current))) {
      await current.server.stop();
      await current.pglite.close();
      held = open();
      current = await held;
    }
    used = true;
    return { url: `postgres://postgres@127.0.0.1:${current.server.port}/postgres`, release: () => void (lent = false) };
  } catch (error) {
    lent = false;
    held = undefined;
    throw error;
  }
};

/**
 * Closes the worker's database (jest's global teardown, for a run in band: there the tests' process is jest's own, and
 * PostgreSQL's idle timer would hold it open; a worker process is ended whatever it holds).
 */
export const closeWorkerDatabase = async (): Promise<void> => {
  const current = held && (await held.catch(() => undefined));
  held = undefined;
  used = false;
  if (!current) return;
  await current.server.stop();
  await current.pglite.close();
};
