/**
 * One database per process. Which engine is chosen by configuration:
 * - DATABASE_URL: real PostgreSQL through a pg Pool (max 10 connections per process, as the spec says);
 * - DB_HOST + DB_USER: the deployed case — RDS Proxy over TLS, IAM authentication: each new connection
 *   signs in with a fresh auth token of the function's role, so a rotation of the database secret (which
 *   only the proxy reads) never strands a warm function;
 * - otherwise embedded PGlite (PostgreSQL in WASM) with pgvector, in DATA_DIR (default .twin/pgdata).
 * PGlite is loaded lazily so deployed bundles never carry it. Either way every statement is traced (./tracing.ts).
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Pool, type PoolClient, type PoolConfig } from 'pg';
import { env, ENV, requireEnv } from '#core/config';
import { logger } from '#core/logger';
import type { Database } from './schema';
import { rdsAuthToken } from '#core/aws/rds-auth-token';
import { manifestFacts } from '#core/function-facts';
import { databaseTimeLeft, deadlineReached } from './deadline';
import { openPglite } from './pglite';
import { timeoutsFor } from './errors';
import { tracedDialect } from './tracing';

export const POOL_MAX = 10;
/** RDS Proxy for PostgreSQL listens on PostgreSQL's port */
export const PROXY_PORT = 5432;

export type Engine = 'postgres' | 'pglite';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  close: () => Promise<void>;
}

export type DatabaseTarget = { engine: 'postgres'; config: PoolConfig } | { engine: 'pglite'; dataDir: string };

export const DEFAULT_DATA_DIR = '.twin/pgdata';

/**
 * The connection timeouts of the function this process runs (FUNCTION_ID, its manifest timeout: see
 * timeoutsFor). None for a process that is no manifest function — the twin's own process, the CLIs, tests,
 * the migrate function (10 minutes, long DDL) —: those keep pg's defaults and the pool's 5-s connect timeout.
 */
export const functionTimeouts = (functionId = env(ENV.functionId)): PoolConfig => {
  const fn = functionId === undefined ? undefined : manifestFacts().find((f) => f.id === functionId);
  if (!fn) return {};
  const { connectMs, statementMs, queryMs } = timeoutsFor(fn.timeoutSeconds);
  return { connectionTimeoutMillis: connectMs, statement_timeout: statementMs, query_timeout: queryMs };
};

/** Where the configuration says the database is, without connecting. */
export const resolveTarget = async (): Promise<DatabaseTarget> => {
  const url = env(ENV.databaseUrl);
  if (url) return { engine: 'postgres', config: { connectionString: url, ...functionTimeouts() } };
  const host = env(ENV.dbHost);
  if (host) {
    const user = requireEnv(ENV.dbUser);
    return {
      engine: 'postgres',
      config: {
        host,
        port: PROXY_PORT,
        database: env(ENV.dbName) ?? 'analysis',
        user,
        ssl: true,
        // called by node-postgres for each new connection: never a password kept from the cold start
        password: rdsAuthToken({ hostname: host, port: PROXY_PORT, username: user }),
        ...functionTimeouts(),
      },
    };
  }
  return { engine: 'pglite', dataDir: env(ENV.dataDir) ?? DEFAULT_DATA_DIR };
};

/**
 * A pg Pool whose connections are heard while idle, busy or closing — one the server or RDS Proxy ends,
 * or a forced database drop right after close, is logged and replaced, never an unhandled crash — and
 * `closed()`, which resolves once every socket has ended after pool.end() (which resolves before that).
 */
export const closeablePool = (config: PoolConfig): { pool: Pool; closed: () => Promise<void> } => {
  const pool = new Pool({ max: POOL_MAX, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000, ...config });
  const ended = new Set<Promise<void>>();
  const closedUnexpectedly = (error: Error) => logger.warn('database connection closed', { error: error.message });
  pool.on('error', closedUnexpectedly);
  connectWithinDeadline(pool);
  pool.on('connect', (client) => {
    client.on('error', closedUnexpectedly);
    guardQueries(client, config.query_timeout);
    const end = new Promise<void>((resolve) => client.once('end', () => resolve()));
    ended.add(end);
    void end.then(() => ended.delete(end));
  });
  return {
    pool,
    closed: async () => {
      await Promise.all(ended);
    },
  };
};

/**
 * A connection is waited for no longer than the request's deadline (./deadline.ts) either: opening one signs in
 * (PGlite's one session answers the sign-in between other connections' exchanges; a busy pool queues). One that
 * arrives after the caller gave up goes straight back to the pool.
 */
const connectWithinDeadline = (pool: Pool): void => {
  const connect = pool.connect.bind(pool) as () => Promise<PoolClient>;
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    const left = databaseTimeLeft();
    if (args.length > 0 || left === undefined) return (connect as (...a: unknown[]) => unknown)(...args);
    if (left <= 0) return Promise.reject(deadlineReached());
    const pending = connect();
    return new Promise<PoolClient>((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        reject(deadlineReached());
      }, left);
      pending.then(
        (client) => {
          clearTimeout(timer);
          if (gaveUp) client.release();
          else resolve(client);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  };
};

/**
 * Each query of a connection: bounded by the request's deadline (./deadline.ts) where that leaves less than the
 * pool's query_timeout — refused outright once no time is left —, and a connection whose query timed out is ended.
 * node-postgres's query_timeout rejects the query but leaves it in flight on the connection, which the pool
 * would hand out again with the answer still owed (the next query would queue behind it): such a connection is
 * ended instead — client.end() destroys the socket of one with a query in flight, which rolls its transaction
 * back — so the pool opens a new one.
 */
const guardQueries = (client: PoolClient, queryTimeoutMs: number | undefined): void => {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const left = databaseTimeLeft();
    const [text, values, callback] = args;
    let result: unknown;
    if (left === undefined || typeof text !== 'string' || callback !== undefined) result = query(...args);
    else if (left <= 0) {
      // ended, not handed back: a transaction it holds is rolled back by the server (its ROLLBACK would be refused too)
      void client.end().catch(() => undefined);
      result = Promise.reject(deadlineReached());
    } else if (queryTimeoutMs !== undefined && left >= queryTimeoutMs) result = query(...args);
    else result = query({ text, values, query_timeout: Math.ceil(left) });
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      if ((error as Error | undefined)?.message === 'Query read timeout') void client.end().catch(() => undefined);
      throw error;
    });
  };
};

/**
 * A database reached through a pool (closeablePool): closing it ends the pool and waits for its connections, then
 * runs `after`. `traced`: each query a subsegment (a function's; the twin's own handle and the tests' are not).
 */
export const pooledDatabase = <E extends Engine>(
  engine: E,
  config: PoolConfig,
  { traced = false, after }: { traced?: boolean; after?: () => Promise<void> | void } = {},
): DatabaseHandle & { engine: E } => {
  const { pool, closed } = closeablePool(config);
  const dialect = new PostgresDialect({ pool });
  const db = new Kysely<Database>({ dialect: traced ? tracedDialect(dialect) : dialect });
  return {
    db,
    engine,
    close: async () => {
      await db.destroy();
      await closed();
      await after?.();
    },
  };
};

export const openDatabase = async (target: DatabaseTarget): Promise<DatabaseHandle> => {
  if (target.engine === 'postgres') return pooledDatabase('postgres', target.config, { traced: true });
  const pglite = await openPglite(target.dataDir);
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  const db = new Kysely<Database>({ dialect: tracedDialect(new PGliteDialect(pglite)) });
  return { db, engine: 'pglite', close: () => db.destroy() };
};

let shared: Promise<DatabaseHandle> | undefined;

/** The process-wide database (a Lambda container's, or the twin's). */
export const database = async (): Promise<Kysely<Database>> => (await handle()).db;

export const handle = (): Promise<DatabaseHandle> => {
  shared ??= resolveTarget()
    .then(openDatabase)
    .catch((error: unknown) => {
      shared = undefined; // a failed open is retried on the next call, not cached
      throw error;
    });
  return shared;
};

/** Replace the process-wide database (the twin and tests hand in the one they opened). */
export const useDatabase = (next: DatabaseHandle | undefined): void => {
  shared = next ? Promise.resolve(next) : undefined;
};

/** A cheap round trip, for health checks. */
export const ping = async (db: Kysely<Database>): Promise<void> => {
  await sql`select 1`.execute(db);
};
