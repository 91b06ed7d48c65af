/**
 * The local twin: the whole service on 127.0.0.1 with no AWS account and no Docker, rendered from the
 * synthesized cloud assembly (./assembly) rather than from a hand-kept copy. One folder a subsystem, each with
 * its start function, composed here in the order their dependencies ask:
 * - ./assembly: the deployment as synthesized (the plan), the functions' bundles;
 * - ./aws: SQS and S3 (fauxqs), Secrets Manager, the certificates; the AWS edge every AWS call of a function
 *   goes through, and the public S3 endpoint presigned URLs lead to;
 * - ./database: embedded PGlite (or real PostgreSQL with DATABASE_URL) behind the RDS Proxy stand-in;
 * - ./bedrock: the Bedrock stand-in; ./identity: the user pool and its tokens;
 * - ./iam: every IAM decision (the functions' calls and sign-ins, the services' invocations of functions);
 * - ./runtime: each function in its own execution environments with exactly its template environment, timeout
 *   and memory; the event source mappings and the schedules;
 * - ./gateway: the HTTP API with its JWT authorizer, and the web app;
 * - ./cli: `npm start` and the operator tools.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ENV, QUEUE_URL_ENV } from '#manifest/runtime-names';
import type { DatabaseHandle } from '#core/db/connection';
import { runningTwin, twinPidPath } from '#core/db/embedded-lock';
import type { QueueName } from '#manifest';
import { twinDirectory } from '../paths';
import { renderDeployment, type DeploymentChanges } from './assembly/deployment';
import { environmentValue, type TwinPlan } from './assembly/plan';
import type { EdgeAddress } from './aws/edge-client';
import { startAwsEndpoints, startAwsServices } from './aws/start';
import { startBedrockStandin, type BedrockStandin } from './bedrock/standin';
import { twinAccount, type TwinAccount } from './aws/account';
import type { StandinEmbedderName } from './bedrock/embedder';
import type { DatabaseProxyControls } from './database/start';
import { startDatabase } from './database/start';
import { demoEmbedded, seedDemoOnce } from './demo';
import { ensureWebApp } from './gateway/web-app';
import { startApi } from './gateway/start';
import { decisionRecord, deploymentIam, roleSessions, type Credentials, type RecordedDecision } from './iam/decisions';
import type { LocalIdentityProvider } from './identity/provider';
import { startIdentity } from './identity/start';
import { loadOrCreateKeys, type TokenSubject } from './identity/tokens';
import { announceEndpoints } from './running';
import type { InvokeOutcome, Invocation, LambdaRuntime, LogLine } from './runtime/lambda';
import type { ScheduleRun } from './runtime/schedules';
import { startEventSources, startFunctions } from './runtime/start';
import { Stops } from './stops';

export const AI_REGIONS = { primary: 'us-east-1', fallback: 'us-west-2' } as const;

export interface TwinOptions extends DeploymentChanges {
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
  /** a migrated PGlite dump (`dumpDataDir`) to start a new embedded database from, instead of initdb + migrations (tests) */
  databaseTemplate?: string;
  /**
   * values for the cron and webhook secrets (`npm start`: CRON_SECRET, WEBHOOK_SECRET), put into the twin's
   * Secrets Manager at start as an operator's PutSecretValue would be; the functions read them from there
   */
  secretValues?: { cron?: string; webhook?: string };
  /** how the Bedrock stand-in embeds (./bedrock/embedder.ts): 'hashing' (default) or 'meaning' */
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
    /** the AWS edge (what the functions reach), for clients of this process (./aws/edge-client.ts) */
    edge: EdgeAddress;
    /** the public S3 endpoint (http://127.0.0.1:<port>/<bucket>/<key>?…) the API's answers map presigned URLs to (./aws/s3-public.ts) */
    publicS3: string;
    bucket: string;
    queues: Record<QueueName, TwinQueue>;
  };
  bedrock: BedrockStandin;
  /** what the account answers about itself to npm run preflight (model access, Lambda's limit, SES, CDK bootstrap) */
  account: TwinAccount;
  /** the local Cognito-compatible endpoint behind /api/auth/* */
  identityProvider: LocalIdentityProvider;
  database: DatabaseHandle;
  /**
   * the RDS Proxy stand-in the functions reach the database through; stop() takes the database away from them,
   * dropConnections() ends their open connections (FATAL 57P01), so their next query opens a new one;
   * fault('down' | 'hung') takes it away (refused) or makes it hang, fault(undefined) brings it back
   */
  databaseProxy: DatabaseProxyControls;
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
  awsCalls: () => RecordedDecision[];
  scheduleRuns: () => ScheduleRun[];
  /** a function's latest invocations (duration, cold start, error or timeout), oldest first */
  invocations: (functionId: string) => Invocation[];
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

/** A queue of the deployment by the function environment variable that names it, with its dead-letter queue. */
const queueOf = (plan: TwinPlan, urlVar: string): TwinQueue => {
  const url = environmentValue(plan, urlVar);
  const queue = plan.queues.find((q) => q.url === url)!;
  const dlqArn = (JSON.parse(queue.attributes.RedrivePolicy ?? '{}') as { deadLetterTargetArn?: string }).deadLetterTargetArn;
  const dlq = plan.queues.find((q) => q.arn === dlqArn);
  if (!dlq) throw new Error(`queue ${queue.name} has no dead-letter queue`);
  return { url: queue.url, arn: queue.arn, dlqUrl: dlq.url, dlqArn: dlq.arn };
};

export const startTwin = async (options: TwinOptions = {}): Promise<Twin> => {
  const log = options.log ?? (() => undefined);
  const twinDir = options.twinDir ? resolve(options.twinDir) : twinDirectory();
  mkdirSync(twinDir, { recursive: true });
  const pidFile = claimFolder(twinDir);
  const stops = new Stops(log);
  stops.add(() => rmSync(pidFile, { force: true }));
  try {
    // what needs nothing of the rest starts at once: the deployment, the database engine, the stand-ins, the web app's build
    const deployment = renderDeployment(options);
    const webApp = ensureWebApp();
    webApp.catch(() => undefined);
    const services = deployment.then(({ plan }) => startAwsServices(stops, { twinDir, plan, secretValues: options.secretValues }));
    const iamOf = deployment.then(({ plan }) => {
      const { credentials, sessions } = roleSessions(plan);
      const decisions = decisionRecord({ changedDeployment: options.transformPlan !== undefined });
      return { credentials, sessions, decisions, iam: deploymentIam({ plan, sessions, record: decisions.record, log }) };
    });
    const parts = [
      deployment,
      services,
      iamOf,
      startDatabase(
        stops,
        { twinDir, databaseUrl: options.databaseUrl, template: options.databaseTemplate, log },
        Promise.all([deployment, services, iamOf]).then(([{ plan }, aws, { iam }]) => ({
          plan,
          secret: aws.databaseSecret,
          tls: aws.certificates,
          iam,
        })),
      ),
      stops.started(startBedrockStandin({ embedder: options.standinEmbedder }), (b) => () => b.stop()),
      loadOrCreateKeys(twinDir),
    ] as const;
    await Promise.allSettled(parts); // every part has started or failed: a failure below stops those that started
    const [{ plan, bundlesDir, bootstrapPath }, aws, { credentials, sessions, decisions, iam }, db, bedrock, keys] =
      await Promise.all(parts);

    // the runtime starts once the edge it routes to is up; the identity provider (behind the edge) may invoke the pool's trigger in it
    const started: { runtime?: LambdaRuntime } = {};
    const invoke: LambdaRuntime['invoke'] = (id, event, invokeOptions) => {
      if (!started.runtime) throw new Error('the Lambda runtime is not running yet');
      return started.runtime.invoke(id, event, invokeOptions);
    };
    const origin = plan.api.cors?.allowOrigins[0] ?? 'http://localhost:5173';
    const identity = await startIdentity(stops, { twinDir, plan, db: db.database.db, keys, iam, invoke, origin, log });
    const account = twinAccount();
    const endpoints = await startAwsEndpoints(stops, {
      plan,
      services: aws,
      bedrockUrl: bedrock.url,
      identityProviderUrl: identity.provider.url,
      account,
      sessions,
      iam,
      invoke,
      log,
    });
    const functions = startFunctions(stops, {
      plan,
      bundlesDir,
      bootstrapPath,
      edge: endpoints.edge,
      proxyPort: db.proxyPort,
      credentials,
      log,
    });
    started.runtime = functions.runtime;

    const seeded =
      options.seed !== false &&
      (await seedDemoOnce({ database: db.database, plan, awsEndpoint: aws.local.endpoint, edge: endpoints.edge }));
    const api = await startApi(stops, {
      plan,
      keys,
      iam,
      invoke,
      toPublicUrl: endpoints.toPublicUrl,
      publicS3: endpoints.publicS3,
      webApp: await webApp,
      port: options.port ?? 3000,
      log,
    });
    endpoints.allowAppOrigin(api.port);
    const url = `http://127.0.0.1:${api.port}`;
    announceEndpoints(
      twinDir,
      {
        url,
        identityProvider: identity.provider.url,
        bedrock: bedrock.url,
        edgePort: endpoints.edge.port,
        region: plan.region,
        pid: process.pid,
        database: db.operatorUrl,
        functions: Object.fromEntries(plan.functions.map((f) => [f.id, f.functionName])),
      },
      stops,
    );

    const events = startEventSources(stops, {
      plan,
      edge: endpoints.edge,
      credentials,
      iam,
      invoke,
      schedules: options.schedules !== false,
      log,
    });
    // the demo seeded at this start is analysable when the twin says it is up: its wake-up's embeddings are waited for
    if (seeded) await demoEmbedded(db.database.db, log);

    return {
      url,
      port: api.port,
      twinDir,
      plan,
      cronSecret: aws.secretOf(ENV.cronSecretArn),
      webhookSecret: aws.secretOf(ENV.webhookSecretArn),
      bedrock,
      account,
      identityProvider: identity.provider,
      database: db.database,
      seeded,
      stop: () => stops.run(),
      databaseProxy: db.proxy,
      aws: {
        endpoint: aws.local.endpoint,
        edge: endpoints.edge,
        publicS3: endpoints.publicS3,
        bucket: environmentValue(plan, ENV.filesBucket),
        queues: Object.fromEntries(
          (Object.keys(QUEUE_URL_ENV) as QueueName[]).map((name) => [name, queueOf(plan, QUEUE_URL_ENV[name])]),
        ) as Record<QueueName, TwinQueue>,
      },
      token: async (who, ttlSeconds) => (await identity.issuer.issue(who, { ...(ttlSeconds !== undefined && { ttlSeconds }) })).accessToken,
      functionCredentials: (functionId) => {
        const given = credentials.get(functionId);
        if (!given) throw new Error(`the deployment has no function ${functionId}`);
        return given;
      },
      invoke: (functionId, event) => invoke(functionId, event),
      logs: (functionId) => (functionId ? functions.logs.filter((l) => l.functionId === functionId) : [...functions.logs]),
      awsCalls: decisions.all,
      scheduleRuns: events.scheduleRuns,
      invocations: (functionId) => functions.runtime.invocations(functionId),
      schedulesSettled: events.schedulesSettled,
    };
  } catch (error) {
    await stops.run();
    throw error;
  }
};
