/**
 * The twin's database: embedded PGlite behind its own PostgreSQL server (./pglite-server.ts), or real PostgreSQL
 * (DATABASE_URL), migrated to the latest schema; and in front of it the RDS Proxy stand-in (./proxy.ts) the
 * functions reach it through, with the deployment's secret and, where the proxy requires it, IAM authentication.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { pooledDatabase, type DatabaseHandle } from '#core/db/connection';
import { openPglite } from '#core/db/pglite';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import type { TwinPlan } from '../assembly/plan';
import type { DeploymentIam } from '../iam/decisions';
import type { Stops } from '../stops';
import { newDatabaseFromTemplate } from './pgdata-template';
import { startPgliteServer } from './pglite-server';
import { startDatabaseProxy, type DatabaseProxy } from './proxy';

/** The database engine behind the proxy, and the twin's own (operator) handle on it. */
const openEngine = async (twinDir: string, databaseUrl: string | undefined, template: string | undefined) => {
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    return {
      handle: pooledDatabase('postgres', { connectionString: databaseUrl }),
      operatorUrl: databaseUrl,
      backend: {
        host: url.hostname,
        port: Number(url.port || 5432),
        user: decodeURIComponent(url.username || 'postgres'),
        password: decodeURIComponent(url.password),
        database: url.pathname.slice(1) || 'postgres',
      },
    };
  }
  const dataDir = join(twinDir, 'pgdata');
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  // a first start: the given dump (tests), else a copy of the cached initdb'd and migrated data directory (./pgdata-template.ts)
  if (fresh && !template) await newDatabaseFromTemplate(dataDir);
  const pglite = await openPglite(dataDir, fresh && template ? new Blob([readFileSync(template)]) : undefined);
  const server = await startPgliteServer(pglite);
  const { port } = server;
  return {
    handle: pooledDatabase(
      'pglite',
      { host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 5 },
      {
        after: async () => {
          await server.stop();
          await pglite.close();
        },
      },
    ),
    // the twin's own (trusted) role: for operator tools, the eval's --templates database (../running.ts)
    operatorUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // the proxy signs in as the secret's user (the instance's master user, setMasterUser)
    backend: { host: '127.0.0.1', port, database: 'postgres' },
  };
};

/** The instance's master user with the secret's password, as RDS creates it (and as a rotation leaves it). */
const setMasterUser = async (db: Kysely<Database>, { username, password }: { username: string; password: string }) => {
  const { rows } = await sql<{ exists: boolean }>`select exists (select from pg_roles where rolname = ${username}) as exists`.execute(db);
  await sql`${sql.raw(rows[0]?.exists ? 'alter' : 'create')} role ${sql.id(username)} login password ${sql.lit(password)}`.execute(db);
};

/** What the proxy needs of the rest of the twin: the deployment, the proxy's secret, its certificate, the IAM. */
export interface ProxySetup {
  plan: TwinPlan;
  /** the proxy's secret (Secrets Manager's current value) */
  secret: () => Promise<{ username: string; password: string }>;
  tls: { keyPem: string; certPem: string };
  iam: DeploymentIam;
}

/** The proxy's controls a test holds: stop() takes the database away from the functions, and so on (Twin.databaseProxy). */
export interface DatabaseProxyControls {
  stop: () => Promise<void>;
  dropConnections: () => Promise<void>;
  fault: DatabaseProxy['fault'];
  pinnedSessions: DatabaseProxy['pinnedSessions'];
}

/** Opens the engine at once (while the rest of the twin starts), then the proxy once its setup is known. */
export const startDatabase = async (
  stops: Stops,
  options: { twinDir: string; databaseUrl?: string; template?: string; log: (line: string) => void },
  proxySetup: Promise<ProxySetup>,
) => {
  const engine = await stops.started(openEngine(options.twinDir, options.databaseUrl, options.template), (e) => () => e.handle.close());
  const database: DatabaseHandle = engine.handle;
  await migrateToLatest(database.db as never);
  const { plan, secret, tls, iam } = await proxySetup;
  // the embedded database's master user (a DATABASE_URL server's roles are its owner's: the proxy signs in with the URL's)
  if (database.engine === 'pglite') await setMasterUser(database.db, await secret());
  const proxy = await startDatabaseProxy({
    tls,
    credentials: secret,
    ...(plan.database.iamAuth && {
      iamAuth: {
        host: plan.database.proxyEndpoint,
        port: plan.database.proxyPort,
        region: plan.region,
        resource: iam.databaseUser,
        authorize: iam.decideDatabaseSignIn,
      },
    }),
    backend: engine.backend,
    log: options.log,
  });
  let proxyStopped: Promise<void> | undefined;
  const stopProxy = () => (proxyStopped ??= proxy.stop());
  stops.add(stopProxy);
  const controls: DatabaseProxyControls = {
    stop: stopProxy,
    dropConnections: () => proxy.dropConnections(),
    fault: (kind) => proxy.fault(kind),
    pinnedSessions: () => proxy.pinnedSessions(),
  };
  return { database, operatorUrl: engine.operatorUrl, proxyPort: proxy.port, proxy: controls };
};
