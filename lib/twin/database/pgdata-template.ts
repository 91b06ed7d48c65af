/**
 * The embedded database a first start begins from: PGlite's initdb (seconds of WASM) and the real
 * migrations run once into a pristine data directory cached under node_modules/.cache/ias-twin, keyed by
 * what that directory is made of — the migrations' module graph (every file esbuild reaches from
 * layers/core/db/migrate.ts, by content) and the versions of PGlite, pgvector and kysely. A start on an
 * empty twin folder copies it (tens of milliseconds) instead; a change to any migration, or to anything
 * a migration imports, or an upgrade of those packages, builds a new one. The twin still runs the
 * migrations on every start (a no-op on a current copy), as the deployed migrate function does.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { openPglite } from '#core/db/pglite';
import { migrateToLatest } from '#core/db/migrate';
import { PROJECT_ROOT } from '../../paths';
import { buildOnce, CACHE_ROOT } from '../assembly/assembly';

/** The module whose graph the schema is made by. */
const MIGRATIONS_ENTRY = 'layers/core/db/migrate.ts';
/** Packages whose version shapes the data directory: the engine, its vector extension, the migrator. */
const ENGINE_PACKAGES = ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'kysely', 'kysely-pglite-dialect'];

/** Cache folders of pristine data directories start with this (assembly.ts CACHE_KINDS: pruning keeps the newest few). */
const PGDATA_TEMPLATE_PREFIX = 'pgdata-';

/** The project files the migrations are built from: the migrate module's graph, as esbuild bundles it (packages apart). */
export const schemaInputs = async (): Promise<string[]> => {
  const { build } = await import('esbuild');
  const { metafile } = await build({
    entryPoints: [join(PROJECT_ROOT, MIGRATIONS_ENTRY)],
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  return Object.keys(metafile.inputs).sort();
};

/** A hash of every project file the migrations are built from (by content) and of the engine packages' versions. */
const schemaHash = async (): Promise<string> => {
  const hash = createHash('sha256');
  for (const file of await schemaInputs())
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(PROJECT_ROOT, file)))
      .update('\0');
  for (const name of ENGINE_PACKAGES) {
    const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
    hash.update(`${name}@${version}\0`);
  }
  return hash.digest('hex').slice(0, 16);
};

/** Where the pristine data directory of the current schema is cached (the folder holding `pgdata`), built or not. */
export const migratedDataDirCache = async (): Promise<string> => join(CACHE_ROOT, `${PGDATA_TEMPLATE_PREFIX}${await schemaHash()}`);

/** The cached pristine data directory (initdb + every migration), built first if there is none for this schema. */
const ensureMigratedDataDir = async (): Promise<string> => {
  const target = await migratedDataDirCache();
  await buildOnce(target, async (dir) => {
    const pglite = await openPglite(join(dir, 'pgdata'));
    const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    }
  });
  return join(target, 'pgdata');
};

/**
 * A new embedded database in `dataDir` from the cached pristine one, when there is no database there yet
 * (no folder, or an empty one). Copied under a private name and renamed into place, so an interrupted
 * copy never looks like a database. Returns whether it copied; otherwise PGlite opens (or initdb's) the folder.
 */
export const newDatabaseFromTemplate = async (dataDir: string): Promise<boolean> => {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const source = await ensureMigratedDataDir();
  const partial = `${dataDir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    cpSync(source, partial, { recursive: true });
    rmSync(dataDir, { recursive: true, force: true });
    renameSync(partial, dataDir);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return true;
};
