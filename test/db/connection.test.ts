/**
 * Closing the process's database leaves nothing behind: on PostgreSQL every socket has ended when
 * close() resolves (pg's pool.end() resolves earlier), so a forced drop of the database right after —
 * what the tests' teardown does — cannot terminate a connection mid-close and crash the process.
 */
import type { PoolClient } from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { closeablePool, openDatabase } from '#core/db/connection';
import type { Database } from '#core/db/schema';
import { createPostgresDatabase, realPostgresUrl, testEngine } from '../support/db';

const pgliteCloses = async () => {
  const { db, close } = await openDatabase({ engine: 'pglite', dataDir: 'memory://' });
  await sql`select 1`.execute(db);
  await close();
  await expect(sql`select 1`.execute(db)).rejects.toThrow();
};

const postgresEndsEveryConnection = async () => {
  const { url, drop } = await createPostgresDatabase(false);
  const { pool, closed } = closeablePool({ connectionString: url, max: 4 });
  const clients: PoolClient[] = [];
  pool.on('connect', (client) => clients.push(client));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(db)));
  expect(clients).toHaveLength(4);
  await db.destroy();
  await closed();
  const sockets = clients.map((client) => (client as unknown as { connection: { stream: { destroyed: boolean } } }).connection.stream);
  expect(sockets.map((socket) => socket.destroyed)).toEqual([true, true, true, true]);
  await drop();
};

test(
  `closing the database ends every connection before it resolves (${testEngine()})`,
  realPostgresUrl() ? postgresEndsEveryConnection : pgliteCloses,
);

// PGlite has no server that could end a connection, so this one is PostgreSQL's alone.
if (realPostgresUrl()) {
  test('a connection the server ends while idle is replaced, not a crash (postgres)', async () => {
    const { url, drop } = await createPostgresDatabase(false);
    const handle = await openDatabase({ engine: 'postgres', config: { connectionString: url, max: 2 } });
    try {
      const {
        rows: [own],
      } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
      const admin = await openDatabase({ engine: 'postgres', config: { connectionString: realPostgresUrl(), max: 1 } });
      await sql`select pg_terminate_backend(${own!.pid})`.execute(admin.db);
      await admin.close();
      await new Promise((resolve) => setTimeout(resolve, 100)); // the terminated idle connection's error arrives
      const {
        rows: [after],
      } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
      expect(after!.pid).not.toBe(own!.pid);
    } finally {
      await handle.close();
      await drop();
    }
  });
}
