/**
 * The RDS Proxy stand-in: a pg Pool configured as a deployed function's (TLS verified against the twin's CA,
 * the secret's username and password, database "analysis") reaches the backend through it — the twin's
 * PGlite server always, and a fresh database on real PostgreSQL in the runs on TEST_DATABASE_URL (CI's
 * second pass), where those tests are defined. With IAM authentication required, clients sign in with
 * tokens from @aws-sdk/rds-signer (as layers/core/db/connection.ts does), and the proxy signs in to the
 * database with the secret's current value, read per connection: a rotation reaches no client.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Signer } from '@aws-sdk/rds-signer';
import type { PGlite } from '@electric-sql/pglite';
import { Client, Pool, type ClientConfig } from 'pg';
import { md5Password, scramClientFinal } from '../../lib/twin/database/backend-sign-in';
import type { IamAuthOptions } from '../../lib/twin/database/client-auth';
import { startDatabaseProxy, type DatabaseProxy, type DatabaseProxyOptions } from '../../lib/twin/database/proxy';
import { policyAuthorizer, type RecordedDecision, type RoleSession } from '../../lib/twin/iam/decisions';
import { passwordMatches, startPgliteServer, type PgliteServer } from '../../lib/twin/database/pglite-server';
import { loadOrCreateTls, type TwinTls } from '../../lib/twin/aws/tls';
import { createPostgresDatabase, emptyPglite, realPostgresUrl } from '../support/db';

const SECRET = { username: 'analysis_app', password: 'pa$$ word:with,odd"chars' };
const PROXY_HOST = 'ias-proxy.proxy-abc123.us-east-1.rds.amazonaws.com';

let dir: string;
let tls: TwinTls;
let pglite: PGlite;
let socketServer: PgliteServer;
let proxy: DatabaseProxy;
const logs: string[] = [];

const backendOf = (server: PgliteServer): DatabaseProxyOptions['backend'] => ({
  host: '127.0.0.1',
  port: server.port,
  user: 'postgres',
  database: 'postgres',
});

const startProxy = (backend: DatabaseProxyOptions['backend']) =>
  startDatabaseProxy({ tls, credentials: async () => SECRET, backend, log: (line) => logs.push(line) });

/** A client as connection.ts configures one (TLS, user, database), with the secret's password: the proxy's password mode, pointed at the local port. */
const clientConfig = (port: number, overrides: ClientConfig = {}): ClientConfig => ({
  host: '127.0.0.1',
  port,
  user: SECRET.username,
  password: SECRET.password,
  database: 'analysis',
  ssl: { ca: tls.caPem, servername: PROXY_HOST },
  ...overrides,
});

const errorOf = async (config: ClientConfig): Promise<{ code?: string; message: string }> => {
  const client = new Client(config);
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    return error as { code?: string; message: string };
  } finally {
    await client.end().catch(() => undefined);
  }
  throw new Error('connected');
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twin-db-proxy-'));
  tls = await loadOrCreateTls(dir, ['localhost', '*.proxy-abc123.us-east-1.rds.amazonaws.com']);
  pglite = await emptyPglite();
  socketServer = await startPgliteServer(pglite);
  proxy = await startProxy(backendOf(socketServer));
});

afterAll(async () => {
  await proxy?.stop();
  await socketServer?.stop();
  await pglite?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Queries, pgvector, a transaction (rolled back, then committed) and 10 queries on 10 connections at once. */
const exercise = async (port: number) => {
  const pool = new Pool({ ...clientConfig(port), max: 10 });
  try {
    expect((await pool.query('select 1 + 1 as n')).rows).toEqual([{ n: 2 }]);

    await pool.query('create extension if not exists vector');
    const distance = await pool.query<{ d: number }>(`select '[1,2,3]'::vector <-> '[1,2,4]'::vector as d`);
    expect(distance.rows[0]!.d).toBe(1);

    await pool.query('create table if not exists proxy_items (id int primary key, label text)');
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`insert into proxy_items values (1, 'rolled back')`);
      await client.query('rollback');
      await client.query('begin');
      await client.query(`insert into proxy_items values (2, 'kept')`);
      await client.query('commit');
    } finally {
      client.release();
    }
    expect((await pool.query('select id, label from proxy_items order by id')).rows).toEqual([{ id: 2, label: 'kept' }]);

    const parallel = await Promise.all(Array.from({ length: 10 }, (_, i) => pool.query<{ n: number }>('select $1::int * 2 as n', [i])));
    expect(parallel.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 10 }, (_, i) => i * 2));
    expect(pool.totalCount).toBe(10);
  } finally {
    await pool.end();
  }
};

describe("over the twin's PGlite server", () => {
  test('a pool configured as in AWS runs queries, a transaction and 10 parallel connections', async () => {
    await exercise(proxy.port);
  });

  test("a session RDS Proxy would pin (a SET, a named prepared statement) is recorded and logged, once each; the service's transaction-scoped settings and locks pin none", async () => {
    const before = proxy.pinnedSessions().length;
    const pool = new Pool({ ...clientConfig(proxy.port), max: 1 });
    try {
      await pool.query(
        'create or replace function set_transaction_settings(names text[], settings text[]) returns void language plpgsql as $$ begin for i in 1 .. coalesce(array_length(names, 1), 0) loop perform set_config(names[i], settings[i], true); end loop; end $$',
      );
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query('select set_transaction_settings($1::text[], $2::text[])', [['work_mem'], ['8MB']]);
        expect((await client.query<{ work_mem: string }>('show work_mem')).rows[0]!.work_mem).toBe('8MB');
        await client.query('commit');
      } finally {
        client.release();
      }
      expect(proxy.pinnedSessions().length).toBe(before);
      await pool.query(`set work_mem = '16MB'`);
      await pool.query(`set work_mem = '32MB'`); // the same session: already pinned
    } finally {
      await pool.end();
    }
    const named = new Client(clientConfig(proxy.port));
    await named.connect();
    try {
      await named.query({ name: 'doubled', text: 'select $1::int * 2 as n', values: [2] });
    } finally {
      await named.end();
    }
    expect(
      proxy
        .pinnedSessions()
        .slice(before)
        .map((session) => session.reason),
    ).toEqual(['A SET statement was detected', 'A prepared statement was detected']);
    expect(logs.filter((line) => line.includes('The client session was pinned')).slice(-2)).toEqual([
      expect.stringContaining(`Reason: A SET statement was detected. Statement: set work_mem = '16MB'`),
      expect.stringContaining('Reason: A prepared statement was detected.'),
    ]);
  });

  test('a wrong password or user is refused with 28P01', async () => {
    const wrongPassword = await errorOf(clientConfig(proxy.port, { password: 'guess' }));
    expect(wrongPassword).toMatchObject({ code: '28P01', message: `password authentication failed for user "${SECRET.username}"` });
    const wrongUser = await errorOf(clientConfig(proxy.port, { user: 'postgres' }));
    expect(wrongUser).toMatchObject({ code: '28P01', message: 'password authentication failed for user "postgres"' });
    expect(logs).toContain('[twin db proxy] password authentication failed for user "postgres"');
  });

  test('a client without TLS is refused with 28000', async () => {
    const error = await errorOf(clientConfig(proxy.port, { ssl: false }));
    expect(error).toMatchObject({ code: '28000', message: 'This RDS Proxy requires TLS connections' });
  });

  test('a client that does not trust the twin CA, or names another host, does not connect', async () => {
    expect(await errorOf(clientConfig(proxy.port, { ssl: { servername: PROXY_HOST } }))).toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    expect(await errorOf(clientConfig(proxy.port, { ssl: { ca: tls.caPem, servername: 'db.example.com' } }))).toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  });

  test('GSSENCRequest is declined, CancelRequest closes quietly, bytes sent ahead of the TLS handshake end the connection', async () => {
    /** What the proxy answers to `bytes` before it closes the connection. */
    const answer = (bytes: Buffer) =>
      new Promise<string>((resolve) => {
        const chunks: Buffer[] = [];
        const socket = connect(proxy.port, '127.0.0.1', () => socket.write(bytes));
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      });
    const packet = (code: number, rest = Buffer.alloc(0)) => {
      const header = Buffer.alloc(8);
      header.writeInt32BE(8 + rest.length, 0);
      header.writeInt32BE(code, 4);
      return Buffer.concat([header, rest]);
    };
    expect(await answer(Buffer.concat([packet(80877104), packet(80877102, Buffer.alloc(8))]))).toBe('N');
    // an injected query after SSLRequest must never run: the connection ends before or at the handshake
    expect(['', 'S']).toContain(await answer(Buffer.concat([packet(80877103), Buffer.from('Q\0\0\0\rselect 1\0')])));
  });

  test('a client killed mid-transaction or mid-result leaves the proxy and the backend usable', async () => {
    const {
      rows: [before],
    } = await pglite.query<{ n: number }>('select count(*)::int as n from proxy_items');
    const logged = logs.length;

    const inTransaction = new Client(clientConfig(proxy.port));
    inTransaction.on('error', () => undefined);
    await inTransaction.connect();
    await inTransaction.query('begin');
    await inTransaction.query(`insert into proxy_items values (100, 'never committed')`);
    inTransaction.connection.stream.destroy();

    const midResult = new Client(clientConfig(proxy.port));
    midResult.on('error', () => undefined);
    await midResult.connect();
    const large = midResult.query(`select g, repeat('x', 200) from generate_series(1, 50000) g`).catch((error: Error) => error);
    setTimeout(() => midResult.connection.stream.destroy(), 5);
    expect(await large).toBeInstanceOf(Error);

    const next = new Client(clientConfig(proxy.port));
    await next.connect();
    try {
      const { rows } = await next.query<{ n: number }>('select count(*)::int as n from proxy_items');
      expect(rows[0]!.n).toBe(before!.n);
      await next.query('begin');
      await next.query(`insert into proxy_items values (101, 'after the kill')`);
      await next.query('commit');
    } finally {
      await next.end();
    }
    expect((await pglite.query('select id from proxy_items where id >= 100')).rows).toEqual([{ id: 101 }]);
    expect(logs.slice(logged)).toEqual([]); // a client leaving is not an error
  });

  test('a backend that cannot be reached is reported to the client as 08006', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await startProxy({ ...backendOf(socketServer), port });
    try {
      const error = await errorOf(clientConfig(unreachable.port));
      expect(error.code).toBe('08006');
      expect(error.message).toMatch(/^the proxy could not open a database connection: connect ECONNREFUSED/);
    } finally {
      await unreachable.stop();
    }
  });

  test('stop() ends open connections and resolves', async () => {
    const own = await startProxy(backendOf(socketServer));
    const client = new Client(clientConfig(own.port));
    const ended = new Promise<void>((resolve) => client.on('end', resolve));
    client.on('error', () => undefined);
    await client.connect();
    await own.stop();
    await ended;
    expect(await errorOf(clientConfig(own.port)).catch((error: Error) => error)).toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('IAM authentication required (IAMAuth: REQUIRED)', () => {
  const REGION = 'us-east-1';
  const PROXY_ID = 'prx-0123456789abcdef0';
  const userArn = (user: string) => `arn:aws:rds-db:${REGION}:000000000000:dbuser:${PROXY_ID}/${user}`;
  /** a function's role session: its statements allow rds-db:connect on the proxy user, or on nothing */
  const identity = (functionId: string, resources: string[]): RoleSession => ({
    functionId,
    principalArn: `arn:aws:sts::000000000000:assumed-role/${functionId}-role/${functionId}`,
    secretAccessKey: `secret of ${functionId}`,
    policy: resources.length
      ? [{ Effect: 'Allow', Action: 'rds-db:connect', Resource: resources }]
      : [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: '*' }],
  });
  const KEYS = {
    granted: { accessKeyId: 'ASIAGRANTEDFUNCTION1', secretAccessKey: 'granted', sessionToken: 'session-granted' },
    otherUser: { accessKeyId: 'ASIAOTHERUSERGRANT01', secretAccessKey: 'other', sessionToken: 'session-other' },
    ungranted: { accessKeyId: 'ASIAUNGRANTEDFUNC001', secretAccessKey: 'ungranted', sessionToken: 'session-ungranted' },
    stranger: { accessKeyId: 'ASIANOIDENTITYATALL1', secretAccessKey: 'stranger', sessionToken: 'session-stranger' },
  };
  const identities = new Map<string, RoleSession>([
    [KEYS.granted.accessKeyId, identity('granted', [userArn(SECRET.username)])],
    [KEYS.otherUser.accessKeyId, identity('other-user', [userArn('postgres')])],
    [KEYS.ungranted.accessKeyId, identity('ungranted', [])],
  ]);
  const decisions: RecordedDecision[] = [];
  /** the proxy's secret as Secrets Manager holds it now (a rotation changes it) */
  let secret = { ...SECRET };
  let now: Date | undefined;
  let iamProxy: DatabaseProxy;

  const iamAuth: IamAuthOptions = {
    host: PROXY_HOST,
    port: 5432,
    region: REGION,
    resource: userArn,
    authorize: policyAuthorizer(identities, '000000000000', (call) => decisions.push(call)),
    now: () => now ?? new Date(),
  };
  /** a token as layers/core/db/connection.ts signs it (the SDK's own signer), for this endpoint unless told otherwise */
  const token = (credentials: typeof KEYS.granted, user = SECRET.username, hostname = PROXY_HOST, region = REGION) =>
    new Signer({ hostname, port: 5432, username: user, region, credentials }).getAuthToken();
  const iamConfig = (overrides: ClientConfig = {}): ClientConfig =>
    clientConfig(iamProxy.port, { password: () => token(KEYS.granted), ...overrides });
  const refusedFor = (user: string) => ({
    code: '28P01',
    message: `The IAM authentication failed for the role ${user}. Check the IAM token for this role and try again.`,
  });

  beforeAll(async () => {
    // the RDS instance's master user: the proxy signs in as it, with the secret's password
    await pglite.exec(`create role ${SECRET.username} login password '${SECRET.password.replace(/'/g, "''")}'`);
    iamProxy = await startDatabaseProxy({
      tls,
      iamAuth,
      credentials: async () => secret,
      log: (line) => logs.push(line),
      backend: { host: '127.0.0.1', port: socketServer.port, database: 'postgres' },
    });
  });
  afterAll(() => iamProxy?.stop());

  test('a token from @aws-sdk/rds-signer, signed by a role allowed rds-db:connect on the proxy user, connects; each new connection signs a new token', async () => {
    let signed = 0;
    const pool = new Pool({
      ...iamConfig(),
      password: () => {
        signed++;
        return token(KEYS.granted);
      },
      max: 3,
    });
    try {
      const results = await Promise.all([1, 2, 3].map((n) => pool.query<{ n: number }>('select $1::int as n', [n])));
      expect(results.map((r) => r.rows[0]!.n)).toEqual([1, 2, 3]);
      expect(pool.totalCount).toBe(3);
      expect(signed).toBe(3);
    } finally {
      await pool.end();
    }
    expect(decisions).toContainEqual(
      expect.objectContaining({ functionId: 'granted', action: 'rds-db:connect', resource: userArn(SECRET.username), allowed: true }),
    );
  });

  test("the secret's password, a token for another user, host or region, an expired token: refused with 28P01 as RDS Proxy refuses them", async () => {
    expect(await errorOf(iamConfig({ password: SECRET.password }))).toMatchObject(refusedFor(SECRET.username));
    expect(await errorOf(iamConfig({ password: () => token(KEYS.granted, 'postgres') }))).toMatchObject(refusedFor(SECRET.username));
    expect(
      await errorOf(iamConfig({ password: () => token(KEYS.granted, SECRET.username, 'other.proxy-abc123.us-east-1.rds.amazonaws.com') })),
    ).toMatchObject(refusedFor(SECRET.username));
    expect(await errorOf(iamConfig({ password: () => token(KEYS.granted, SECRET.username, PROXY_HOST, 'us-west-2') }))).toMatchObject(
      refusedFor(SECRET.username),
    );
    const signed = await token(KEYS.granted);
    now = new Date(Date.now() + 901_000);
    try {
      expect(await errorOf(iamConfig({ password: signed }))).toMatchObject(refusedFor(SECRET.username));
    } finally {
      now = undefined;
    }
    expect(logs).toEqual(
      expect.arrayContaining([
        `[twin db proxy] IAM authentication failed for user "${SECRET.username}": not an RDS IAM auth token`,
        `[twin db proxy] IAM authentication failed for user "${SECRET.username}": the token is for user "postgres", not "${SECRET.username}"`,
        `[twin db proxy] IAM authentication failed for user "${SECRET.username}": the token has expired`,
      ]),
    );
  });

  test('an access key of no known identity, or a role without rds-db:connect on this user, is refused', async () => {
    expect(await errorOf(iamConfig({ password: () => token(KEYS.stranger) }))).toMatchObject(refusedFor(SECRET.username));
    expect(await errorOf(iamConfig({ password: () => token(KEYS.ungranted) }))).toMatchObject(refusedFor(SECRET.username));
    // allowed to connect as postgres, which is not the user it asks for
    expect(await errorOf(iamConfig({ password: () => token(KEYS.otherUser) }))).toMatchObject(refusedFor(SECRET.username));
    expect(decisions).toContainEqual(
      expect.objectContaining({ functionId: 'ungranted', resource: userArn(SECRET.username), allowed: false }),
    );
    expect(logs).toContain(
      `[twin db proxy] IAM authentication failed for user "${SECRET.username}": the access key ${KEYS.stranger.accessKeyId} belongs to no identity`,
    );
  });

  test('a user the proxy holds no secret for is refused, even with a grant', async () => {
    expect(await errorOf(iamConfig({ user: 'postgres', password: () => token(KEYS.otherUser, 'postgres') }))).toMatchObject(
      refusedFor('postgres'),
    );
    expect(logs).toContain('[twin db proxy] IAM authentication failed for user "postgres": the proxy has no secret for user "postgres"');
  });

  test("rotation: the proxy signs in to the database with the secret's current value, for each new connection; open ones carry on", async () => {
    const open = new Client(iamConfig());
    await open.connect();
    try {
      const rotated = { ...SECRET, password: 'rotated-Password-2' };
      // the rotation's setSecret step: the database has the new password, the secret's current value does not yet
      await pglite.exec(`alter role ${SECRET.username} password '${rotated.password}'`);
      expect(await errorOf(iamConfig())).toMatchObject({
        code: '28P01',
        message: `password authentication failed for user "${SECRET.username}"`,
      });
      // finishSecret: the new value is current; the client's token is unchanged, its new connection works
      secret = rotated;
      const next = new Client(iamConfig());
      await next.connect();
      expect((await next.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await next.end();
      expect((await open.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    } finally {
      await open.end();
    }
  });

  test('dropConnections() ends open connections with 57P01; the pool opens new ones', async () => {
    const pool = new Pool({ ...iamConfig(), max: 2 });
    const closed: string[] = [];
    pool.on('error', (error: Error & { code?: string }) => closed.push(error.code ?? error.message));
    try {
      await Promise.all([pool.query('select 1'), pool.query('select 2')]);
      expect(pool.idleCount).toBe(2);
      await iamProxy.dropConnections();
      for (let waited = 0; closed.length < 2 && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(closed).toEqual(['57P01', '57P01']);
      expect(pool.totalCount).toBe(0);
      expect((await pool.query('select 3 as three')).rows).toEqual([{ three: 3 }]);
    } finally {
      await pool.end();
    }
  });
});

describe("the PGlite server's sign-in (the RDS instance's)", () => {
  const config = (user: string, password?: string): ClientConfig => ({
    host: '127.0.0.1',
    port: socketServer.port,
    user,
    database: 'postgres',
    ...(password !== undefined && { password }),
  });

  beforeAll(() => pglite.exec(`create role instance_user login password 'Instance-Pass-1'; create role no_login password 'x'`));

  test("a role with a password gives it; a wrong one, an unknown role or a role that may not log in is refused; a role without one (the twin's own) is trusted", async () => {
    const right = new Client(config('instance_user', 'Instance-Pass-1'));
    await right.connect();
    expect((await right.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await right.end();
    expect(await errorOf(config('instance_user', 'wrong'))).toMatchObject({
      code: '28P01',
      message: 'password authentication failed for user "instance_user"',
    });
    expect(await errorOf(config('nobody', 'anything'))).toMatchObject({
      code: '28P01',
      message: 'password authentication failed for user "nobody"',
    });
    expect(await errorOf(config('no_login', 'x'))).toMatchObject({ code: '28000', message: 'role "no_login" is not permitted to log in' });
    const trusted = new Client(config('postgres'));
    await trusted.connect();
    await trusted.end();
  });

  test("passwordMatches reads PostgreSQL's SCRAM-SHA-256 and md5 verifiers", async () => {
    const {
      rows: [role],
    } = await pglite.query<{ rolpassword: string }>(`select rolpassword from pg_authid where rolname = 'instance_user'`);
    expect(role!.rolpassword).toMatch(/^SCRAM-SHA-256\$4096:/);
    expect(await passwordMatches(role!.rolpassword, 'instance_user', 'Instance-Pass-1')).toBe(true);
    expect(await passwordMatches(role!.rolpassword, 'instance_user', 'Instance-Pass-2')).toBe(false);
    const md5 = `md5${createHash('md5').update('secretanalysis').digest('hex')}`; // md5(password + user)
    expect(await passwordMatches(md5, 'analysis', 'secret')).toBe(true);
    expect(await passwordMatches(md5, 'analysis', 'other')).toBe(false);
  });
});

describe('backend authentication math', () => {
  test('SCRAM-SHA-256 matches RFC 7677', async () => {
    const step = await scramClientFinal(
      'pencil',
      'n=user,r=rOprNGfwEbeRWgbNEkqO',
      'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
    );
    expect(step).toEqual({
      clientFinal: 'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
      serverSignature: '6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=',
    });
  });

  test('a server nonce that does not extend the client nonce is rejected', async () => {
    await expect(scramClientFinal('pencil', 'n=,r=abc', 'r=xyz123,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096')).rejects.toThrow('invalid SCRAM');
  });

  test('MD5 is "md5" + md5(md5(password + user) + salt)', () => {
    // computed apart, with Python's hashlib
    expect(md5Password('analysis', 'secret', Buffer.from([0x01, 0xa2, 0xff, 0x00]))).toBe('md5d6dc4b85d2fa98716d438a12283a8d44');
  });
});

if (realPostgresUrl())
  describe('over real PostgreSQL (TEST_DATABASE_URL)', () => {
    let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let backend: DatabaseProxyOptions['backend'];

    beforeAll(async () => {
      database = await createPostgresDatabase(false);
      const url = new URL(database.url);
      backend = {
        host: url.hostname,
        port: Number(url.port || 5432),
        user: decodeURIComponent(url.username),
        ...(url.password && { password: decodeURIComponent(url.password) }),
        database: url.pathname.slice(1),
      };
    });
    afterAll(() => database?.drop());

    test('a pool configured as in AWS runs queries, a transaction and 10 parallel connections', async () => {
      const real = await startProxy(backend);
      try {
        await exercise(real.port);
      } finally {
        await real.stop();
      }
    });

    test("the client's own startup parameters reach the backend (PGlite ignores them)", async () => {
      const real = await startProxy(backend);
      const client = new Client(clientConfig(real.port, { application_name: 'proxy-test' }));
      try {
        await client.connect();
        const { rows } = await client.query(
          `select current_setting('application_name') as name, current_user as role, current_database() as db`,
        );
        expect(rows).toEqual([{ name: 'proxy-test', role: backend.user, db: backend.database }]);
      } finally {
        await client.end();
        await real.stop();
      }
    });

    test("the backend's startup error reaches the client", async () => {
      const real = await startProxy({ ...backend, database: 'no_such_database' });
      try {
        expect(await errorOf(clientConfig(real.port))).toMatchObject({ code: '3D000' });
      } finally {
        await real.stop();
      }
    });
  });
