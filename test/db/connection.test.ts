/**
 * Closing the process's database leaves nothing behind: on PostgreSQL every socket has ended when
 * close() resolves (pg's pool.end() resolves earlier), so a forced drop of the database right after —
 * what the tests' teardown does — cannot terminate a connection mid-close and crash the process.
 * A request's deadline bounds each of its statements (db/deadline.ts), over a real connection on either engine
 * (PGlite through the twin's wire server, whose one session a transaction holds, as a lock does on PostgreSQL).
 */
import type { PoolClient } from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { closeablePool, openDatabase } from '#core/db/connection';
import { withDatabaseDeadline } from '#core/db/deadline';
import { isDatabaseUnavailable } from '#core/db/errors';
import type { Database } from '#core/db/schema';
import { startPgliteServer } from '../../lib/twin/database/pglite-server';
import { createPostgresDatabase, emptyPglite, realPostgresUrl, testEngine } from '../support/db';

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

/** An empty database served over the wire: a fresh one on the real server, or an in-memory PGlite behind the twin's server. */
const wireDatabase = async (): Promise<{ url: string; stop: () => Promise<void> }> => {
  if (realPostgresUrl()) {
    const { url, drop } = await createPostgresDatabase(false);
    return { url, stop: drop };
  }
  const pglite = await emptyPglite();
  const server = await startPgliteServer(pglite);
  return {
    url: `postgres://postgres@127.0.0.1:${server.port}/postgres`,
    stop: async () => {
      await server.stop();
      await pglite.close();
    },
  };
};

test(`a request's deadline bounds each statement: one still waiting at it ends as "database unavailable", its transaction rolled back; one after it is never sent (${testEngine()})`, async () => {
  const { url, stop } = await wireDatabase();
  // an API function's pool: 5-s query timeout (errors.ts timeoutsFor)
  const { pool, closed } = closeablePool({ connectionString: url, max: 3, query_timeout: 5_000 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`create table deadline_probe (n int)`.execute(db);
    const holder = await pool.connect();
    await holder.query('begin');
    await holder.query('lock table deadline_probe');
    const started = Date.now();
    const waited = await withDatabaseDeadline(started + 500, () =>
      db.transaction().execute(async (trx) => {
        await sql`insert into deadline_probe values (1)`.execute(trx);
      }),
    ).catch((error: unknown) => error);
    const waitedMs = Date.now() - started;
    await holder.query('commit');
    holder.release();
    expect(isDatabaseUnavailable(waited)).toBe(true);
    // the statement's own 5-s timeout did not apply: the deadline's 500 ms did
    expect(waitedMs).toBeGreaterThanOrEqual(450);
    expect(waitedMs).toBeLessThan(2_500);

    const refusedAt = Date.now();
    const refused = await withDatabaseDeadline(refusedAt - 1, () => sql`insert into deadline_probe values (2)`.execute(db)).catch(
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(Date.now() - refusedAt).toBeLessThan(250);

    // with time left, statements run as always; neither insert above was kept
    const { rows } = await withDatabaseDeadline(Date.now() + 5_000, () =>
      sql<{ n: number }>`select count(*)::int as n from deadline_probe`.execute(db),
    );
    expect(rows[0]!.n).toBe(0);
  } finally {
    await db.destroy();
    await closed();
    await stop();
  }
});
