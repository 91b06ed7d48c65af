/**
 * The deploy-time migrate function (functions/deploy/migrate.ts) against a database that has never been
 * migrated: the first run applies every migration, a re-run (the next deploy) applies nothing, and two
 * overlapping runs (a retried deployment) apply each migration once. PGlite by default; TEST_DATABASE_URL
 * runs it on real PostgreSQL. Also: the wait for a proxy that is not accepting connections yet.
 */
import type { Context } from 'aws-lambda';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { handler } from '../../functions/deploy/migrate';
import { openDatabase, useDatabase, type DatabaseHandle } from '#core/db/connection';
import { migrations } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import { untilReachable } from '#core/db/reachable';
import { createPostgresDatabase, emptyPglite, realPostgresUrl } from '../support/db';

const freshDatabase = async (): Promise<{ handle: DatabaseHandle; dispose: () => Promise<void> }> => {
  if (realPostgresUrl()) {
    const { url, drop } = await createPostgresDatabase(false);
    const handle = await openDatabase({ engine: 'postgres', config: { connectionString: url } });
    return {
      handle,
      dispose: async () => {
        await handle.close();
        await drop();
      },
    };
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(await emptyPglite()) });
  const handle: DatabaseHandle = { db, engine: 'pglite', close: () => db.destroy() };
  return { handle, dispose: handle.close };
};

const context = {} as Context;

describe('migrations on deploy', () => {
  let handle: DatabaseHandle;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ handle, dispose } = await freshDatabase());
    useDatabase(handle);
  });

  afterEach(async () => {
    useDatabase(undefined);
    await dispose();
  });

  test('the first deploy applies every migration in order (pgvector included); the next one applies nothing', async () => {
    expect(await handler(undefined, context)).toEqual({ applied: Object.keys(migrations) });
    const { rows } = await sql<{ extname: string }>`select extname from pg_extension where extname = 'vector'`.execute(handle.db);
    expect(rows).toEqual([{ extname: 'vector' }]);
    expect(await handler(undefined, context)).toEqual({ applied: [] });
  });

  test('overlapping runs apply each migration exactly once', async () => {
    const [a, b] = await Promise.all([handler(undefined, context), handler(undefined, context)]);
    expect([...a.applied, ...b.applied]).toEqual(Object.keys(migrations));
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(handle.db);
    expect(rows[0]!.n).toBe(Object.keys(migrations).length);
  });
});

describe('waiting for a new proxy', () => {
  const refusing = (failures: number) => {
    let calls = 0;
    return {
      check: async () => {
        calls += 1;
        if (calls <= failures) throw new Error(`refused ${calls}`);
      },
      calls: () => calls,
    };
  };

  test('retries until the database answers, pausing between attempts', async () => {
    const pauses: number[] = [];
    const db = refusing(2);
    await untilReachable(db.check, {
      attempts: 5,
      delayMs: 15_000,
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    expect(db.calls()).toBe(3);
    expect(pauses).toEqual([15_000, 15_000]);
  });

  test('gives up after the last attempt with the last error', async () => {
    const db = refusing(10);
    await expect(untilReachable(db.check, { attempts: 3, delayMs: 1, sleep: async () => undefined })).rejects.toThrow('refused 3');
    expect(db.calls()).toBe(3);
  });
});
