/**
 * A fresh, migrated database for one test file, on either engine:
 * - TEST_DATABASE_URL set (CI's second pass): a new database on that real PostgreSQL server, dropped after;
 * - otherwise embedded PGlite: the jest worker's, lent to one file at a time and reset between files
 *   (./worker-database.ts), or, when it is out on loan or outside jest, one in memory loaded from the migrated
 *   template that globalSetup builds once.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { closeablePool, pooledDatabase, type DatabaseHandle } from '#core/db/connection';
import { openPglite } from '#core/db/pglite';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import { EMPTY_TEMPLATE_PATH, TEMPLATE_PATH } from './template-paths';

declare global {
  var borrowWorkerDatabase: typeof import('./worker-database').borrowWorkerDatabase | undefined;
}

export const realPostgresUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

export const testEngine = (): 'postgres' | 'pglite' => (realPostgresUrl() ? 'postgres' : 'pglite');

/** A database on the real server named by TEST_DATABASE_URL; returns its URL and a drop function. */
export const createPostgresDatabase = async (migrate = true): Promise<{ url: string; drop: () => Promise<void> }> => {
  const adminUrl = realPostgresUrl();
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const { pool: admin } = closeablePool({ connectionString: adminUrl, max: 1 });
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (migrate) {
    const { pool, closed } = closeablePool({ connectionString: url.toString(), max: 1 });
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    await migrateToLatest(db);
    await db.destroy();
    await closed();
  }
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
};

export const testDatabase = async (): Promise<DatabaseHandle> => {
  if (realPostgresUrl()) {
    const { url, drop } = await createPostgresDatabase();
    return pooledDatabase('postgres', { connectionString: url }, { after: drop });
  }
  // jest's environment lends its worker's database (./environment.ts); a script outside jest opens its own
  const borrowed = await globalThis.borrowWorkerDatabase?.();
  if (borrowed) return pooledDatabase('pglite', { connectionString: borrowed.url }, { after: borrowed.release });
  const template = new Blob([await readFile(TEMPLATE_PATH)]);
  const pglite = await openPglite('memory://', template);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, engine: 'pglite', close: () => db.destroy() };
};

/** An in-memory PGlite never migrated (pgvector loadable, not created), from the empty template global setup builds. */
export const emptyPglite = async (): Promise<PGlite> => openPglite('memory://', new Blob([await readFile(EMPTY_TEMPLATE_PATH)]));

/** Names of the user tables in the connected database, for schema checks. */
export const tableNames = async (db: Kysely<Database>): Promise<string[]> => {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  return rows.map((r) => r.table_name);
};

/**
 * A fresh database for the enclosing describe block (or file): opened before its tests, closed after.
 * Returns a stand-in that forwards to it, so a test file declares `const db = useTestDatabase()`.
 */
export const useTestDatabase = (): Kysely<Database> => {
  let current: DatabaseHandle | undefined;
  beforeAll(async () => {
    current = await testDatabase();
  });
  afterAll(() => current?.close());
  return new Proxy({} as Kysely<Database>, {
    get: (_, key) => {
      if (!current) throw new Error('the test database opens in beforeAll');
      const value = Reflect.get(current.db, key) as unknown;
      return typeof value === 'function' ? value.bind(current.db) : value;
    },
  });
};
