/**
 * The local twin: the whole service on 127.0.0.1 with no AWS account and no Docker, rendered from the
 * synthesized cloud assembly (./assembly) rather than from a hand-kept copy. Each function runs in its
 * own execution environments with exactly its template environment, timeout and memory (./runtime);
 * its AWS calls reach the local stand-ins only through the AWS edge, which checks each against the
 * function's synthesized IAM policy (./aws-edge.ts); its database connections go through an RDS Proxy
 * stand-in that requires TLS and the secret's credentials (./db-proxy.ts). The HTTP API, its JWT
 * authorizer, the event source mappings, the schedules and the user pool are those of the templates.
 * Behind them: embedded PGlite (or real PostgreSQL with DATABASE_URL), fauxqs for SQS and S3, the
 * Bedrock stand-in and the local identity provider.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createLocalJWKSet } from 'jose';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { ENV, QUEUE_URL_ENV } from '#manifest/runtime-names';
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import { verifyToken } from '#core/auth/jwt';
import { closeablePool, openPglite, type DatabaseHandle } from '#core/db/connection';
import { migrateToLatest } from '#core/db/migrate';
import { runningTwin, twinPidPath } from '#core/db/embedded-lock';
import type { Database } from '#core/db/schema';
import type { EmbeddingWakeUp } from '#core/embeddings/wake';
import type { QueueName } from '#manifest';
import { twinDirectory } from '../paths';
import { appSourceHash, CACHE_ROOT, ensureAssembly, pruneCache, readAssembly } from './assembly/assembly';
import { ensureBootstrap, ensureBundles } from './assembly/bundles';
import { planFromAssembly, type PlanCorsRule, type PlanFunction, type TwinPlan } from './assembly/plan';
import { awsEdgeHandler, startAwsEdge, type EdgeCall, type EdgeIdentity } from './aws-edge';
import { lambdaService } from './lambda-service';
import { evaluate, matchesResource } from './iam/policy';
import { startBedrockStandin, type BedrockStandin } from './bedrock-standin';
import type { StandinEmbedderName } from './standin-embedder';
import { policyAuthorizer, startDatabaseProxy, type DatabaseProxy } from './db-proxy';
import { edgeClientConfig, type EdgeAddress } from './edge-client';
import { createGateway } from './gateway';
import { createTokenIssuer, jwksDocument, loadOrCreateKeys, type TokenSubject } from './identity';
import { startLocalIdentityProvider, type LocalIdentityProvider } from './identity-provider';
import { startLocalAws, type LocalAws } from './local-aws';
import { loadOrCreatePasskey } from './passkey';
import { newDatabaseFromTemplate } from './pgdata-template';
import { startPgliteServer } from './pglite-server';
import { startPoller, type Poller } from './pollers';
import { objectEvents } from './s3-events';
import { publicUrls, startS3Public, withPublicUrls } from './s3-public';
import { ENDPOINTS_FILE, type TwinEndpoints } from './running';
import {
  startLambdaRuntime,
  type Credentials,
  type InvokeOutcome,
  type Invocation,
  type LambdaRuntime,
  type LogLine,
  type NetworkRoute,
} from './runtime/lambda';
import { startSchedule, type ScheduleRun } from './schedules';
import { apiDocs } from './api-docs';
import { ensureWebApp, webAppSite } from './web-app';
import { loadOrCreateSecrets } from './secrets';
import { loadOrCreateTls } from './tls';

export const AI_REGIONS = { primary: 'us-east-1', fallback: 'us-west-2' } as const;

export interface TwinOptions {
  /** HTTP port; 0 picks a free one */
  port?: number;
  /** folder for the twin's state: embedded database, queues and files, keys, secrets, certificates */
  twinDir?: string;
  /** real PostgreSQL instead of embedded PGlite */
  databaseUrl?: string;
  /** seed the demo investigation into an empty database (default true) */
  seed?: boolean;
  /** run the schedules on timers, and once at start (default true) */
  schedules?: boolean;
  /** CDK context the stage is synthesized with, on top of cdk.json's (e.g. `{ rateLimits: 'off' }`) */
  context?: Record<string, string>;
  /** a migrated PGlite dump (`dumpDataDir`) to start a new embedded database from, instead of initdb + migrations (tests) */
  databaseTemplate?: string;
  /**
   * a change to the deployment for a test: every queue rendered with this visibility timeout (seconds), so
   * redeliveries come quickly. Shorter than a consumer's timeout, AWS would refuse it at deploy; the synthesized
   * deployment itself is checked for that (assembly/plan.ts), this change is not.
   */
  visibilityTimeoutSeconds?: number;
  /** a change to the rendered deployment before it runs (a test removing a grant, shortening a timeout) */
  transformPlan?: (plan: TwinPlan) => TwinPlan;
  /**
   * values for the cron and webhook secrets (`npm start`: CRON_SECRET, WEBHOOK_SECRET), put into the twin's
   * Secrets Manager at start as an operator's PutSecretValue would be; the functions read them from there
   */
  secretValues?: { cron?: string; webhook?: string };
  /** how the Bedrock stand-in embeds (./standin-embedder.ts): 'hashing' (default) or 'meaning' */
  standinEmbedder?: StandinEmbedderName;
  log?: (line: string) => void;
}

interface TwinQueue {
  url: string;
  arn: string;
  dlqUrl: string;
  dlqArn: string;
}

export interface Twin {
  url: string;
  port: number;
  twinDir: string;
  /** what the twin runs: the synthesized deployment, resolved */
  plan: TwinPlan;
  cronSecret: string;
  /** signs test deliveries to POST /api/webhooks/payment (Stripe-Signature) */
  webhookSecret: string;
  aws: {
    /** fauxqs's own endpoint: operator access to SQS and S3 (no IAM) */
    endpoint: string;
    /** the AWS edge (what the functions reach), for clients of this process (./edge-client.ts) */
    edge: EdgeAddress;
    /** the public S3 endpoint (http://127.0.0.1:<port>/<bucket>/<key>?…) the API's answers map presigned URLs to (./s3-public.ts) */
    publicS3: string;
    bucket: string;
    queues: Record<QueueName, TwinQueue>;
  };
  bedrock: BedrockStandin;
  /** the local Cognito-compatible endpoint behind /api/auth/* */
  identityProvider: LocalIdentityProvider;
  database: DatabaseHandle;
  /**
   * the RDS Proxy stand-in the functions reach the database through; stop() takes the database away from them,
   * dropConnections() ends their open connections (FATAL 57P01), so their next query opens a new one;
   * fault('down' | 'hung') takes it away (refused) or makes it hang, fault(undefined) brings it back
   */
  databaseProxy: { stop: () => Promise<void>; dropConnections: () => Promise<void>; fault: DatabaseProxy['fault'] };
  seeded: boolean;
  /** an access token of this user, as a sign-in gets it from the pool (trigger included); ttlSeconds < 0: already expired */
  token: (who: TokenSubject, ttlSeconds?: number) => Promise<string>;
  /** the credentials of a function's role session, as its environment holds them: for a test acting as that function (presigning a URL) */
  functionCredentials: (functionId: string) => Credentials;
  /** invokes a function as `aws lambda invoke` would (RequestResponse) */
  invoke: (functionId: string, event: unknown) => Promise<InvokeOutcome>;
  /** every function's log lines so far (CloudWatch Logs of the twin), or one function's */
  logs: (functionId?: string) => LogLine[];
  /** every AWS call a function made, with the IAM decision (its database sign-ins too: rds-db:connect) */
  awsCalls: () => TwinAwsCall[];
  scheduleRuns: () => ScheduleRun[];
  /** a function's latest invocations (duration, cold start, error or timeout), oldest first */
  invocations: (functionId: string) => Invocation[];
  /** resolves when the schedules' start-up runs (and any run in progress) have finished */
  schedulesSettled: () => Promise<void>;
  stop: () => Promise<void>;
}

/** An AWS call a function made, or its IAM sign-in at the database proxy. */
type TwinAwsCall = Omit<EdgeCall, 'service'> & { service: EdgeCall['service'] | 'rds-db' };

/**
 * Where the twins of a test run record every function's AWS calls (one JSON object per line) for
 * `npm run iam-report`, when RECORD_CALLS_ENV is `1` (test/support/env.ts sets it; global-setup empties the file).
 */
export const IAM_CALLS_FILE = join(CACHE_ROOT, 'iam-calls.jsonl');
const RECORD_CALLS_ENV = 'TWIN_RECORD_CALLS';

/** One twin per folder: the embedded database must never be opened by two processes. */
const claimFolder = (twinDir: string): string => {
  const holder = runningTwin(join(twinDir, 'pgdata'));
  if (holder) throw new Error(`a twin (pid ${holder.pid}) is already running on ${twinDir}; stop it first`);
  const file = twinPidPath(join(twinDir, 'pgdata'));
  writeFileSync(file, String(process.pid));
  return file;
};

/** Temporary credentials of a function's role session: stable per function, so logs and reports can name them. */
const credentialsOf = (fn: PlanFunction): Credentials => {
  const digest = createHash('sha256').update(`${fn.stack}/${fn.logicalId}`).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return {
    accessKeyId: `ASIA${Array.from(digest.subarray(0, 16), (b) => alphabet[b % 32]).join('')}`,
    secretAccessKey: digest.toString('base64'),
    sessionToken: randomBytes(32).toString('base64'),
  };
};

const REGION_PATTERN = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

/** The database engine behind the proxy, and the twin's own (operator) handle on it. */
const openBackend = async (twinDir: string, databaseUrl: string | undefined, template: string | undefined) => {
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    const { pool, closed } = closeablePool({ connectionString: databaseUrl });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      handle: {
        db,
        engine: 'postgres' as const,
        close: async () => {
          await db.destroy();
          await closed();
        },
      },
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
  const { pool, closed } = closeablePool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 5 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    handle: {
      db,
      engine: 'pglite' as const,
      close: async () => {
        await db.destroy();
        await closed();
        await server.stop();
        await pglite.close();
      },
    },
    // the twin's own (trusted) role: for operator tools, the eval's --templates database (running.ts)
    operatorUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // the proxy signs in as the secret's user (the instance's master user, setMasterUser)
    backend: { host: '127.0.0.1', port, database: 'postgres' },
  };
};

/** SQS and S3 (fauxqs) with the deployment's queues and buckets, and the certificates of the AWS edge and the database proxy. */
const startAwsAndTls = async (
  twinDir: string,
  plan: TwinPlan,
  track: (starting: Promise<LocalAws>) => Promise<LocalAws>,
): Promise<{ aws: LocalAws; certificates: Awaited<ReturnType<typeof loadOrCreateTls>> }> => {
  const { region } = plan;
  const regions = [
    ...new Set([region, ...plan.functions.flatMap((f) => Object.values(f.environment)).filter((v) => REGION_PATTERN.test(v))]),
  ];
  const proxyDomain = plan.database.proxyEndpoint.split('.').slice(1).join('.');
  const parts = [
    track(startLocalAws({ dataDir: join(twinDir, 'aws'), region, queues: plan.queues, buckets: plan.buckets.map((b) => b.name) })),
    loadOrCreateTls(join(twinDir, 'tls'), [
      ...regions.flatMap((r) => [`*.${r}.amazonaws.com`, `*.s3.${r}.amazonaws.com`]),
      '*.s3.amazonaws.com',
      `*.${proxyDomain}`,
    ]),
  ] as const;
  await Promise.allSettled(parts);
  const [aws, certificates] = await Promise.all(parts);
  return { aws, certificates };
};

/** The instance's master user with the secret's password, as RDS creates it (and as a rotation leaves it). */
const setMasterUser = async (db: Kysely<Database>, { username, password }: { username: string; password: string }) => {
  const { rows } = await sql<{ exists: boolean }>`select exists (select from pg_roles where rolname = ${username}) as exists`.execute(db);
  await sql`${sql.raw(rows[0]?.exists ? 'alter' : 'create')} role ${sql.id(username)} login password ${sql.lit(password)}`.execute(db);
};

/** The rendered deployment for these options: the cloud assembly (synthesized if the sources changed) and the bundles. */
export const renderDeployment = async (options: Pick<TwinOptions, 'context' | 'visibilityTimeoutSeconds' | 'transformPlan'> = {}) => {
  const sourceHash = appSourceHash();
  const corsOrigin = process.env.CORS_ORIGIN;
  const context = { ...(corsOrigin && { corsOrigin }), ...options.context };
  const [assemblyDir, bootstrapPath] = await Promise.all([ensureAssembly(context, sourceHash), ensureBootstrap()]);
  const assembly = readAssembly(assemblyDir);
  const bundlesDir = await ensureBundles(assembly.functions, sourceHash);
  void pruneCache();
  let plan = planFromAssembly(assembly);
  if (options.visibilityTimeoutSeconds !== undefined) {
    const seconds = String(options.visibilityTimeoutSeconds);
    plan = { ...plan, queues: plan.queues.map((q) => ({ ...q, attributes: { ...q.attributes, VisibilityTimeout: seconds } })) };
  }
  return { plan: options.transformPlan ? options.transformPlan(plan) : plan, bundlesDir, bootstrapPath };
};

/** The value a function environment variable has in the plan (e.g. which bucket is FILES_BUCKET). */
const environmentValue = (plan: TwinPlan, name: string): string => {
  const value = plan.functions.map((f) => f.environment[name]).find((v) => v !== undefined);
  if (value === undefined) throw new Error(`no function of the deployment has ${name}`);
  return value;
};

export const startTwin = async (options: TwinOptions = {}): Promise<Twin> => {
  const log = options.log ?? (() => undefined);
  const twinDir = options.twinDir ? resolve(options.twinDir) : twinDirectory();
  mkdirSync(twinDir, { recursive: true });
  const pidFile = claimFolder(twinDir);
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(pidFile, { force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch((error: unknown) => log(`stopping: ${String(error)}`));
  };

  try {
    /** a part that started is stopped with the twin, also when another part fails to start */
    const stoppedWithTwin = async <T>(starting: Promise<T>, stopOf: (started: T) => () => Promise<void>): Promise<T> => {
      const started = await starting;
      cleanups.push(stopOf(started));
      return started;
    };
    // the local AWS services and the certificates need only the rendered deployment: they start while the database opens
    const deployment = renderDeployment(options);
    // the web app's build (cached; Vite runs only after a change to web/), served at / once the gateway listens
    const webApp = ensureWebApp();
    webApp.catch(() => undefined);
    const parts = [
      deployment,
      stoppedWithTwin(openBackend(twinDir, options.databaseUrl, options.databaseTemplate), (b) => () => b.handle.close()),
      stoppedWithTwin(startBedrockStandin({ embedder: options.standinEmbedder }), (b) => () => b.stop()),
      loadOrCreateKeys(twinDir),
      deployment.then(({ plan }) => startAwsAndTls(twinDir, plan, (aws) => stoppedWithTwin(aws, (a) => () => a.stop()))),
    ] as const;
    await Promise.allSettled(parts); // every part has started or failed: a failure below stops those that started
    const [{ plan, bundlesDir, bootstrapPath }, backend, bedrock, keys, { aws, certificates }] = await Promise.all(parts);
    const database: DatabaseHandle = backend.handle;
    const { region, account } = plan;

    await migrateToLatest(database.db as never);
    const secrets = loadOrCreateSecrets(twinDir, plan.secrets, plan.database);
    const given = { [ENV.cronSecretArn]: options.secretValues?.cron, [ENV.webhookSecretArn]: options.secretValues?.webhook };
    for (const [arnVar, value] of Object.entries(given)) if (value) secrets.put(environmentValue(plan, arnVar), value);
    const secretValue = (arnVar: string) => {
      const value = secrets.value(environmentValue(plan, arnVar));
      if (value === undefined) throw new Error(`the secret ${arnVar} names is not in the deployment`);
      return value;
    };
    const cronSecret = secretValue(ENV.cronSecretArn);
    const webhookSecret = secretValue(ENV.webhookSecretArn);
    const databaseSecret = async () => JSON.parse(secrets.value(plan.database.secretArn) ?? '{}') as { username: string; password: string };
    // the embedded database's master user (a DATABASE_URL server's roles are its owner's: the proxy signs in with the URL's)
    if (database.engine === 'pglite') await setMasterUser(database.db, await databaseSecret());
    const proxy = await startDatabaseProxy({
      tls: certificates,
      credentials: databaseSecret,
      ...(plan.database.iamAuth && {
        iamAuth: {
          host: plan.database.proxyEndpoint,
          port: plan.database.proxyPort,
          region,
          resource: (user: string) => `arn:aws:rds-db:${region}:${account}:dbuser:${plan.database.proxyResourceId}/${user}`,
          // the functions' identities, defined below: a function connects only once the runtime runs
          authorize: (accessKeyId: string, permission: { action: string; resource: string }) =>
            policyAuthorizer(identities, account, record, log)(accessKeyId, permission),
        },
      }),
      backend: backend.backend,
      log,
    });
    let proxyStopped: Promise<void> | undefined;
    const stopProxy = () => (proxyStopped ??= proxy.stop());
    cleanups.push(stopProxy);

    const bucket = environmentValue(plan, ENV.filesBucket);
    const corsOrigin = plan.api.cors?.allowOrigins[0] ?? 'http://localhost:5173';

    // the runtime starts once the edge it routes to is up; the identity provider (behind the edge) may invoke the pool's trigger in it
    const started: { runtime?: LambdaRuntime } = {};
    const invokeFunction: LambdaRuntime['invoke'] = (id, event, invokeOptions) => {
      if (!started.runtime) throw new Error('the Lambda runtime is not running yet');
      return started.runtime.invoke(id, event, invokeOptions);
    };

    // the pool and its trigger: Cognito invokes the trigger function only if its resource policy lets it
    const trigger = plan.userPool.preTokenGeneration && plan.functions.find((f) => f.id === plan.userPool.preTokenGeneration!.functionId);
    const issuer = createTokenIssuer({
      keys,
      pool: plan.userPool,
      region,
      ...(trigger && {
        trigger: async (event) =>
          trigger.invokers.some((i) => i.principal === 'cognito-idp.amazonaws.com')
            ? invokeFunction(trigger.id, event)
            : {
                ok: false,
                timedOut: false,
                error: { errorType: 'AccessDeniedException', errorMessage: `Cognito may not invoke ${trigger.functionName}` },
              },
      }),
    });
    const identityProvider = await startLocalIdentityProvider({
      db: database.db,
      keys,
      issuer,
      passkey: await loadOrCreatePasskey(twinDir),
      origin: corsOrigin,
      log,
      pool: { userPoolId: plan.userPool.id, clientId: plan.userPool.clients[0]!.id, mfa: plan.userPool.mfa },
    });
    cleanups.push(() => identityProvider.stop());

    // ── the AWS edge and the functions' runtime ───────────────────────────────────────────────
    const credentials = new Map(plan.functions.map((fn) => [fn.id, credentialsOf(fn)]));
    const identities = new Map<string, EdgeIdentity>(
      plan.functions.map((fn) => [
        credentials.get(fn.id)!.accessKeyId,
        {
          functionId: fn.id,
          principalArn: `arn:aws:sts::${account}:assumed-role/${fn.roleName}/${fn.functionName}`,
          policy: fn.policy,
          secretAccessKey: credentials.get(fn.id)!.secretAccessKey,
          sessionToken: credentials.get(fn.id)!.sessionToken,
        },
      ]),
    );
    const calls: TwinAwsCall[] = [];
    const recording = process.env[RECORD_CALLS_ENV] === '1';
    const changedDeployment = options.transformPlan !== undefined;
    const record = (call: TwinAwsCall) => {
      calls.push(call);
      if (recording) appendFileSync(IAM_CALLS_FILE, `${JSON.stringify({ ...call, ...(changedDeployment && { changedDeployment }) })}\n`);
    };
    const resourcePolicies = new Map<string, NonNullable<TwinPlan['queues'][number]['policy']>>([
      ...plan.queues.map((q) => [q.arn, q.policy] as const),
      ...plan.buckets.map((b) => [b.arn, b.policy] as const),
      ...plan.secrets.map((s) => [s.arn, s.policy] as const),
    ]);
    // EventBridge's deliveries of the buckets' events to the rules' queues, with the twin's own access to its SQS
    const eventBridgeSqs = new SQSClient({
      region,
      endpoint: aws.endpoint,
      credentials: { accessKeyId: 'twin-eventbridge', secretAccessKey: 'twin' },
    });
    cleanups.push(() => eventBridgeSqs.destroy());
    const handleAws = awsEdgeHandler({
      account,
      backends: {
        sqs: { url: aws.endpoint, keepHost: true },
        s3: { url: aws.endpoint, keepHost: true },
        'bedrock-runtime': { url: bedrock.url },
        'cognito-idp': { url: identityProvider.url },
        secretsmanager: { handle: secrets.handle },
        lambda: { handle: lambdaService(plan.functions, (id, event) => invokeFunction(id, event)) },
      },
      identities,
      resourcePolicy: (arn) => resourcePolicies.get(arn) ?? resourcePolicies.get(arn.replace(/\/.*$/, '')),
      secretArnOf: secrets.arnOf,
      record,
      objectCreated: objectEvents({
        plan,
        send: async (queueUrl, body) => {
          await eventBridgeSqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
        },
        log,
      }),
      log,
    });
    const edge = await startAwsEdge({ tls: certificates, account, handle: handleAws, log });
    cleanups.push(() => edge.stop());
    // where users follow presigned URLs: the same handler, behind the bucket's CORS (the gateway maps the URLs there)
    // copies of the buckets' CORS rules: the twin's own web app origin joins the app's (appOrigin, below)
    const servedBuckets = plan.buckets.map((b) => ({
      ...b,
      cors: b.cors.map((rule) => ({ ...rule, allowedOrigins: [...rule.allowedOrigins] })),
    }));
    const s3Public = await startS3Public({ region, account, buckets: servedBuckets, handle: handleAws, log });
    cleanups.push(() => s3Public.stop());
    const toPublicUrl = publicUrls(
      s3Public.url,
      plan.buckets.map((b) => b.name),
      region,
    );
    const edgeAddress: EdgeAddress = { port: edge.port, caPem: certificates.caPem };

    const toEdge = { host: '127.0.0.1', port: edge.port };
    const awsRoutes: NetworkRoute[] = [
      'sqs.*.amazonaws.com',
      '*.s3.*.amazonaws.com',
      's3.*.amazonaws.com',
      '*.s3.amazonaws.com',
      'bedrock-runtime.*.amazonaws.com',
      'cognito-idp.*.amazonaws.com',
      'secretsmanager.*.amazonaws.com',
    ].map((host) => ({ host, to: toEdge }));
    const logs: LogLine[] = [];
    const runtime = startLambdaRuntime(plan.functions, {
      bundlesDir,
      bootstrapPath,
      caPem: certificates.caPem,
      region,
      credentials: (fn) => credentials.get(fn.id)!,
      // the proxy sits in the VPC's isolated subnets: only functions placed in the VPC reach it
      routes: (fn) => [
        ...awsRoutes,
        { host: plan.database.proxyEndpoint, to: fn.inVpc ? { host: '127.0.0.1', port: proxy.port } : 'blackhole' },
      ],
      onLog: (line) => {
        logs.push(line);
        if (logs.length > 20_000) logs.splice(0, 5_000);
        for (const text of line.text.split('\n').filter(Boolean)) log(`[${line.functionId}] ${text}`);
      },
    });
    started.runtime = runtime;
    cleanups.push(() => runtime.stop());

    const seeded = options.seed === false ? false : await seedDemoData(database, aws.endpoint, bucket, region);
    // the demo's texts were written as chunks waiting for embeddings: wake the embedding worker, as every writer does
    if (seeded)
      await wakeEmbeddingOf(edgeAddress, region, environmentValue(plan, ENV.embeddingQueueUrl), Object.values(DEMO_INVESTIGATION_IDS));

    // ── the HTTP API ──────────────────────────────────────────────────────────────────────────
    const authorizer = plan.api.authorizer;
    const localKeys = createLocalJWKSet(jwksDocument(keys));
    const server: Server = createServer(
      createGateway({
        api: plan.api,
        account,
        authorize: (token) => {
          if (!authorizer) throw new Error('the API has no JWT authorizer');
          return verifyToken(token, localKeys, { issuer: authorizer.issuer, audience: authorizer.audience });
        },
        // API Gateway may invoke an integration only where the function's resource policy lets it (AWS::Lambda::Permission)
        invoke: async (functionId, event, requestId) => {
          const fn = plan.functions.find((f) => f.id === functionId)!;
          const source = `arn:aws:execute-api:${region}:${account}:${plan.api.id}/$default/${event.routeKey.replace(' ', '')}`;
          if (
            !fn.invokers.some((i) => i.principal === 'apigateway.amazonaws.com' && (!i.sourceArn || matchesResource(i.sourceArn, source)))
          ) {
            return {
              ok: false,
              timedOut: false,
              durationMs: 0,
              coldStart: false,
              error: { errorType: 'AccessDeniedException', errorMessage: `API Gateway may not invoke ${fn.functionName} (${source})` },
            };
          }
          return invokeFunction(functionId, event, { requestId });
        },
        rewriteAnswer: (answer) => withPublicUrls(answer, toPublicUrl),
        onRequest: log,
        extras: apiDocs(),
        // the app uploads files by presigned URL to the public S3 endpoint, as deployed to the bucket's address
        site: webAppSite(await webApp, [s3Public.url]),
      }),
    );
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(options.port ?? 3000, '127.0.0.1', ok);
    });
    cleanups.push(
      () =>
        new Promise<void>((ok) => {
          server.closeAllConnections();
          server.close(() => ok());
        }),
    );
    const port = (server.address() as { port: number }).port;
    appOrigin(servedBuckets, plan.api.cors?.allowOrigins ?? [], port);
    const endpoints: TwinEndpoints = {
      url: `http://127.0.0.1:${port}`,
      identityProvider: identityProvider.url,
      bedrock: bedrock.url,
      edgePort: edge.port,
      region,
      pid: process.pid,
      database: backend.operatorUrl,
      functions: Object.fromEntries(plan.functions.map((f) => [f.id, f.functionName])),
    };
    // it names a database its reader may sign in to, as secrets.json holds the secrets: the owner's only
    writeFileSync(join(twinDir, ENDPOINTS_FILE), JSON.stringify(endpoints, null, 1), { mode: 0o600 });
    cleanups.push(() => rmSync(join(twinDir, ENDPOINTS_FILE), { force: true }));

    // ── event source mappings and schedules ───────────────────────────────────────────────────
    const pollers: Poller[] = plan.eventSources.map((mapping) => {
      const queue = plan.queues.find((q) => q.arn === mapping.queueArn);
      if (!queue) throw new Error(`event source of ${mapping.functionId}: no queue ${mapping.queueArn}`);
      const sqs = new SQSClient(edgeClientConfig(edgeAddress, region, credentials.get(mapping.functionId)!));
      cleanups.push(() => sqs.destroy());
      return startPoller({ sqs, mapping, queueUrl: queue.url, region, invoke: (event) => invokeFunction(mapping.functionId, event), log });
    });
    cleanups.push(async () => {
      await Promise.all(pollers.map((p) => p.stop()));
    });
    const runs: ScheduleRun[] = [];
    // EventBridge Scheduler invokes the target with the schedule's role: it must allow lambda:InvokeFunction on it
    const scheduled =
      (schedule: TwinPlan['schedules'][number]) =>
      async (event: unknown): Promise<InvokeOutcome> => {
        const target = plan.functions.find((f) => f.id === schedule.functionId)!;
        const decision = evaluate(schedule.policy, {
          principalArn: schedule.roleArn,
          action: 'lambda:InvokeFunction',
          resource: target.arn,
        });
        if (!decision.allowed) {
          return {
            ok: false,
            timedOut: false,
            durationMs: 0,
            coldStart: false,
            error: { errorType: 'AccessDeniedException', errorMessage: `${schedule.roleArn} may not invoke ${target.arn}` },
          };
        }
        return invokeFunction(schedule.functionId, event);
      };
    const schedules =
      options.schedules === false
        ? []
        : plan.schedules.map((schedule) => startSchedule(schedule, scheduled(schedule), (run) => runs.push(run), log));
    for (const schedule of schedules) cleanups.push(() => schedule.stop());
    // the demo seeded at this start is analysable when the twin says it is up: its wake-up's embeddings are waited for
    if (seeded) await demoEmbedded(database.db, log);

    const queueOf = (urlVar: string): TwinQueue => {
      const url = environmentValue(plan, urlVar);
      const queue = plan.queues.find((q) => q.url === url)!;
      const dlqArn = (JSON.parse(queue.attributes.RedrivePolicy ?? '{}') as { deadLetterTargetArn?: string }).deadLetterTargetArn;
      const dlq = plan.queues.find((q) => q.arn === dlqArn);
      if (!dlq) throw new Error(`queue ${queue.name} has no dead-letter queue`);
      return { url: queue.url, arn: queue.arn, dlqUrl: dlq.url, dlqArn: dlq.arn };
    };

    return {
      url: `http://127.0.0.1:${port}`,
      port,
      twinDir,
      plan,
      cronSecret,
      webhookSecret,
      bedrock,
      identityProvider,
      database,
      seeded,
      stop,
      databaseProxy: { stop: stopProxy, dropConnections: () => proxy.dropConnections(), fault: (kind) => proxy.fault(kind) },
      aws: {
        endpoint: aws.endpoint,
        edge: edgeAddress,
        publicS3: s3Public.url,
        bucket,
        queues: Object.fromEntries(
          (Object.keys(QUEUE_URL_ENV) as QueueName[]).map((name) => [name, queueOf(QUEUE_URL_ENV[name])]),
        ) as Record<QueueName, TwinQueue>,
      },
      token: async (who, ttlSeconds) => (await issuer.issue(who, { ...(ttlSeconds !== undefined && { ttlSeconds }) })).accessToken,
      functionCredentials: (functionId) => {
        const given = credentials.get(functionId);
        if (!given) throw new Error(`the deployment has no function ${functionId}`);
        return given;
      },
      invoke: (functionId, event) => invokeFunction(functionId, event),
      logs: (functionId) => (functionId ? logs.filter((l) => l.functionId === functionId) : [...logs]),
      awsCalls: () => [...calls],
      scheduleRuns: () => [...runs],
      invocations: (functionId) => runtime.invocations(functionId),
      schedulesSettled: async () => {
        await Promise.all(schedules.map((s) => s.settled()));
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
};

/**
 * The twin serves the web app itself, in CloudFront's place: the rules that let the stage's app origin (the API's
 * CORS origin, as the stacks give the files bucket) use the bucket let the twin's own address, where it serves the
 * app, in too, so the browser's uploads cross origins and meet the bucket's CORS as they do deployed.
 */
const appOrigin = (buckets: { cors: PlanCorsRule[] }[], stageOrigins: readonly string[], port: number) => {
  for (const rule of buckets.flatMap((b) => b.cors))
    if (rule.allowedOrigins.some((origin) => stageOrigins.includes(origin)))
      rule.allowedOrigins.push(`http://127.0.0.1:${port}`, `http://localhost:${port}`);
};

/** A start waits for the demo's embeddings while they progress: at most this long without one more chunk embedded. */
const DEMO_EMBEDDING_STALL_MS = 10_000;

/** Resolves when no chunk of the demo waits for its vector, or once none has been embedded for a while (said in the log). */
const demoEmbedded = async (db: Kysely<Database>, log: (line: string) => void) => {
  let waiting = Number.POSITIVE_INFINITY;
  let progressAt = Date.now();
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from text_chunks
      where investigation_id = any(${Object.values(DEMO_INVESTIGATION_IDS)}::uuid[]) and embedding is null`.execute(db);
    const n = rows[0]!.n;
    if (n === 0) return;
    if (n < waiting) [waiting, progressAt] = [n, Date.now()];
    if (Date.now() - progressAt > DEMO_EMBEDDING_STALL_MS) {
      log(`[twin] the demo still has ${n} chunks waiting for embeddings; the embedding worker goes on with them`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/**
 * Sends the embedding queue a wake-up for each investigation, as an operator (through the edge): the seed wrote all it
 * will, so the last, partial request of each does not wait for more (1.9 s of every cold start; docs/benchmarks.md).
 */
const wakeEmbeddingOf = async (edge: EdgeAddress, region: string, queueUrl: string, investigationIds: readonly string[]) => {
  const sqs = new SQSClient(edgeClientConfig(edge, region, { accessKeyId: 'twin-operator', secretAccessKey: 'twin-operator' }));
  try {
    for (const id of investigationIds)
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify({ investigation_id: id, done_writing: true } satisfies EmbeddingWakeUp),
        }),
      );
  } finally {
    sqs.destroy();
  }
};

/**
 * First start: the demo investigation (files into the files bucket, as an operator would load them; rows into the database).
 * The S3 client is loaded only when there is something to put (a later start finds the demo seeded and puts nothing).
 */
const seedDemoData = async (database: DatabaseHandle, endpoint: string, bucket: string, region: string): Promise<boolean> => {
  const { seedDemo } = await import('#core/seed/load');
  let s3: Promise<{ client: S3Client; PutObjectCommand: typeof PutObjectCommand }> | undefined;
  const client = () =>
    (s3 ??= import('@aws-sdk/client-s3').then((sdk) => ({
      client: new sdk.S3Client({
        endpoint,
        region,
        forcePathStyle: true,
        credentials: { accessKeyId: 'twin-operator', secretAccessKey: 'twin-operator' },
      }),
      PutObjectCommand: sdk.PutObjectCommand,
    })));
  try {
    const storage = {
      put: async (key: string, body: string | Uint8Array, contentType: string) => {
        const s3Sdk = await client();
        await s3Sdk.client.send(
          new s3Sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, ServerSideEncryption: 'AES256' }),
        );
      },
    };
    return (await seedDemo(database.db, { storage })) !== null;
  } finally {
    if (s3) (await s3).client.destroy();
  }
};
