/**
 * The local twin: the whole service on 127.0.0.1 with no AWS account and no Docker. It renders the
 * service manifest the way the CDK stacks do — the same handler modules behind an API Gateway
 * stand-in, SQS queues with DLQs feeding the workers, schedules on timers — over embedded PGlite
 * (or real PostgreSQL with DATABASE_URL), fauxqs for SQS and S3, and the Bedrock stand-in.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { functions, type QueueTrigger, type ScheduleTrigger } from '../manifest';
import { ENV } from '../../layers/core/config';
import { openDatabase, useDatabase, type DatabaseHandle } from '../../layers/core/db/connection';
import { migrateToLatest } from '../../layers/core/db/migrate';
import { runningTwin, twinPidPath } from '../../layers/core/db/embedded-lock';
import { sqsClient } from '../../layers/core/aws/clients';
import { startBedrockStandin, type BedrockStandin } from './bedrock-standin';
import { createGateway, type LambdaHandler } from './gateway';
import { jwksDocument, loadOrCreateKeys, mintToken, TWIN_CLIENT_ID, TWIN_ISSUER, type TokenSubject } from './identity';
import { startLocalIdentityProvider, TWIN_USER_POOL_ID, type LocalIdentityProvider } from './identity-provider';
import { loadOrCreatePasskey } from './passkey';
import { startLocalAws, type LocalAws } from './local-aws';
import { PROJECT_ROOT, twinDirectory } from '../paths';
import { startPoller, type Poller } from './pollers';
import { startSchedule } from './schedules';

export const AI_REGIONS = { primary: 'us-east-1', fallback: 'us-west-2' } as const;

export interface TwinOptions {
  /** HTTP port; 0 picks a free one */
  port?: number;
  /** folder for the twin's state: embedded database, queues and files, keys, cron secret */
  twinDir?: string;
  /** real PostgreSQL instead of embedded PGlite */
  databaseUrl?: string;
  /** seed the demo investigation into an empty database (default true) */
  seed?: boolean;
  /** run schedule triggers on timers, and once at start (default true) */
  schedules?: boolean;
  /** queue visibility timeout override (seconds), so tests see redrives quickly */
  visibilityTimeoutSeconds?: number;
  corsOrigin?: string;
  log?: (line: string) => void;
}

export interface Twin {
  url: string;
  port: number;
  twinDir: string;
  cronSecret: string;
  /** signs test deliveries to POST /api/webhooks/payment (Stripe-Signature) */
  webhookSecret: string;
  aws: LocalAws;
  bedrock: BedrockStandin;
  /** the local Cognito-compatible sign-in endpoint behind /api/auth/* */
  identityProvider: LocalIdentityProvider;
  database: DatabaseHandle;
  seeded: boolean;
  token: (who: TokenSubject) => Promise<string>;
  /** resolves when the schedules' start-up runs (and any run in progress) have finished */
  schedulesSettled: () => Promise<void>;
  stop: () => Promise<void>;
}

/** One twin per folder: the embedded database must never be opened by two processes. */
const claimFolder = (twinDir: string): string => {
  const holder = runningTwin(join(twinDir, 'pgdata'));
  if (holder) throw new Error(`a twin (pid ${holder.pid}) is already running on ${twinDir}; stop it first`);
  const file = twinPidPath(join(twinDir, 'pgdata'));
  writeFileSync(file, String(process.pid));
  return file;
};

const readOrCreateSecret = (path: string): string => {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(24).toString('base64url');
  writeFileSync(path, secret, { mode: 0o600 });
  return secret;
};

const loadHandlers = async (): Promise<Map<string, LambdaHandler>> => {
  const entries = await Promise.all(functions.map(async (fn) => {
    const mod = (await import(join(PROJECT_ROOT, fn.entry))) as { handler?: LambdaHandler };
    if (typeof mod.handler !== 'function') throw new Error(`${fn.entry} exports no handler`);
    return [fn.id, mod.handler] as const;
  }));
  return new Map(entries);
};

export const startTwin = async (options: TwinOptions = {}): Promise<Twin> => {
  const log = options.log ?? (() => undefined);
  const twinDir = options.twinDir ? resolve(options.twinDir) : twinDirectory();
  mkdirSync(twinDir, { recursive: true });
  const pidFile = claimFolder(twinDir);
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(pidFile, { force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };

  try {
    const [aws, bedrock, keys, database] = await Promise.all([
      startLocalAws({ dataDir: join(twinDir, 'aws'), ...(options.visibilityTimeoutSeconds !== undefined && { visibilityTimeoutSeconds: options.visibilityTimeoutSeconds }) }),
      startBedrockStandin(),
      loadOrCreateKeys(twinDir),
      openDatabase(options.databaseUrl
        ? { engine: 'postgres', config: { connectionString: options.databaseUrl } }
        : { engine: 'pglite', dataDir: join(twinDir, 'pgdata') }),
    ]);
    cleanups.push(() => aws.stop(), () => bedrock.stop(), () => database.close());
    await migrateToLatest(database.db as never);
    useDatabase(database);
    cleanups.push(() => useDatabase(undefined));
    const cronSecret = readOrCreateSecret(join(twinDir, 'cron-secret'));
    const corsOrigin = options.corsOrigin ?? process.env.CORS_ORIGIN ?? 'http://localhost:5173';
    const identityProvider = await startLocalIdentityProvider({ db: database.db, keys, passkey: await loadOrCreatePasskey(twinDir), origin: corsOrigin, log });
    cleanups.push(() => identityProvider.stop());
    const webhookSecret = readOrCreateSecret(join(twinDir, 'webhook-secret'));

    // What the CDK stacks set on each Lambda, pointed at the local stand-ins.
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'twin',
      AWS_SECRET_ACCESS_KEY: 'twin-secret',
      AWS_ENDPOINT_URL_SQS: aws.endpoint,
      AWS_ENDPOINT_URL_S3: aws.endpoint,
      [ENV.bedrockEndpoint]: bedrock.url,
      [ENV.generationQueueUrl]: aws.queues.generation.url,
      [ENV.qualityQueueUrl]: aws.queues.quality.url,
      [ENV.filesBucket]: aws.bucket,
      [ENV.cronSecret]: cronSecret,
      [ENV.webhookSecret]: webhookSecret,
      [ENV.jwtIssuer]: TWIN_ISSUER,
      [ENV.jwtAudience]: TWIN_CLIENT_ID,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: identityProvider.url,
      [ENV.userPoolId]: TWIN_USER_POOL_ID,
      [ENV.userPoolClientId]: TWIN_CLIENT_ID,
      [ENV.aiPrimaryRegion]: AI_REGIONS.primary,
      [ENV.aiFallbackRegion]: AI_REGIONS.fallback,
      POWERTOOLS_SERVICE_NAME: 'investigation-analysis-twin',
    });

    const seeded = options.seed === false ? false : await seedDemoData(database);
    const handlers = await loadHandlers();

    const server: Server = createServer(createGateway({
      handlers,
      corsOrigin,
      extras: { '/.well-known/jwks.json': () => jwksDocument(keys) },
      onRequest: log,
    }));
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(options.port ?? 3000, '127.0.0.1', ok);
    });
    cleanups.push(() => new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }));
    const port = (server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}`;
    process.env[ENV.jwksUrl] = `${url}/.well-known/jwks.json`;

    const pollers: Poller[] = [];
    const schedules: { settled: () => Promise<void> }[] = [];
    for (const fn of functions) {
      for (const trigger of fn.triggers) {
        const handler = handlers.get(fn.id)!;
        if (trigger.kind === 'queue') {
          pollers.push(startPoller({ sqs: sqsClient(), fn, trigger: trigger as QueueTrigger, queue: aws.queues[trigger.queue], handler, log }));
        } else if (trigger.kind === 'schedule' && options.schedules !== false) {
          const schedule = startSchedule(fn, trigger as ScheduleTrigger, handler, log);
          schedules.push(schedule);
          cleanups.push(() => schedule.stop());
        }
      }
    }
    cleanups.push(async () => { await Promise.all(pollers.map((p) => p.stop())); });

    return {
      url, port, twinDir, cronSecret, webhookSecret, aws, bedrock, identityProvider, database, seeded, stop,
      token: (who) => mintToken(keys, who),
      schedulesSettled: async () => { await Promise.all(schedules.map((s) => s.settled())); },
    };
  } catch (error) {
    await stop();
    throw error;
  }
};

/** First start: the demo investigation (files into the local bucket, rows into the database). */
const seedDemoData = async (database: DatabaseHandle): Promise<boolean> => {
  const { seedDemo } = await import('../../layers/core/seed/load');
  const { s3Storage } = await import('../../layers/core/storage');
  return (await seedDemo(database.db, { storage: s3Storage() })) !== null;
};
