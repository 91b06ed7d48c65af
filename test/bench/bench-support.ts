/** What the bench's sections share: figures of samples, timing, a scratch PostgreSQL database, a keep-alive client. */
import { Agent, request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { createAiGateway, type AiGateway, type GatewayConfig, type GatewayDeps } from '#core/ai/gateway';
import { ATTEMPT_TIMEOUT_DEFAULTS_MS, FOLLOW_UP_QUOTA_MAX_WAIT_MS } from '#core/ai/timeouts';
import { DEFAULT_AI_MODELS } from '#core/config';
import { startTwin, type Twin } from '../../lib/twin/twin';

export type Engine = 'pglite' | 'postgres';
export const ENGINE_NAMES = { pglite: 'PGlite', postgres: 'PostgreSQL' } as const;

export const log = (line: string) => console.log(`  … ${line}`);
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
};
export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
export const stats = (samples: number[]) =>
  `p50 ${quantile(samples, 0.5).toFixed(2)} ms  p99 ${quantile(samples, 0.99).toFixed(2)} ms  mean ${mean(samples).toFixed(2)} ms`;

export const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
};

/** A flag's value: `--name=value`, or undefined; numbers may be written 100_000 or 100,000. */
export const flagValue = (flags: readonly string[], name: string): string | undefined =>
  flags.find((f) => f.startsWith(`--${name}=`))?.slice(name.length + 3);

export const flagNumber = (flags: readonly string[], name: string): number | undefined => {
  const value = flagValue(flags, name);
  return value === undefined ? undefined : Number(value.replace(/[_,]/g, ''));
};

// ---- real PostgreSQL: a scratch database per run ----------------------------------------------

export const realPostgresUrl = (): string | undefined => process.env.BENCH_DATABASE_URL || undefined;

export const skipRealPostgres = (what: string) => {
  console.log(`  real PostgreSQL: skipped (${what}) — set BENCH_DATABASE_URL to a server with pgvector, e.g.`);
  console.log('    BENCH_DATABASE_URL="$(bash scripts/ci/postgres.sh start | tail -n1)" npm run bench -- assess retrieval');
  console.log('    (port 55432 may be taken by CI runs: PGPORT_CI=55494 PGDATA_DIR=/tmp/bench-pg bash scripts/ci/postgres.sh start|stop)');
};

/** Creates a scratch database on the BENCH_DATABASE_URL server, hands its URL to `fn`, drops it afterwards. */
export const withScratchDatabase = async <T>(serverUrl: string, fn: (url: string) => Promise<T>): Promise<T> => {
  const name = `ias_bench_${Date.now()}_${process.pid}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      return await fn(url.toString());
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  } finally {
    await admin.end();
  }
};

/**
 * A twin for a section that drives the API hard: no demo, no schedules, and the per-user rate limit and the stage's
 * route throttles off, which would measure the limiter rather than the pipeline (`context` adds CDK context).
 */
export const startBenchTwin = (twinDir: string, databaseUrl?: string, context: Record<string, string> = {}): Promise<Twin> =>
  startTwin({
    port: 0,
    twinDir,
    seed: false,
    schedules: false,
    context: { gatewayThrottles: 'off', rateLimits: 'off', ...context },
    ...(databaseUrl && { databaseUrl }),
  });

/**
 * Runs a section on the engines `--engine` names (default both): PGlite embedded, PostgreSQL in a scratch database of
 * BENCH_DATABASE_URL's server, skipped with how to set it when there is none.
 */
export const onEngines = async (flags: readonly string[], what: string, run: (engine: Engine, databaseUrl?: string) => Promise<void>) => {
  for (const engine of (flagValue(flags, 'engine')?.split(',') ?? ['pglite', 'postgres']) as Engine[]) {
    if (engine === 'pglite') await run('pglite');
    else {
      const serverUrl = realPostgresUrl();
      if (serverUrl) await withScratchDatabase(serverUrl, (url) => run('postgres', url));
      else skipRealPostgres(`${what} on PostgreSQL`);
    }
  }
};

/**
 * A keep-alive HTTP/1.1 client of `sockets` connections, as a browser or an SDK holds them. Not fetch: undici's
 * allocations trigger young-generation collections in this process (5–10 ms each on this machine), and the twin's
 * gateway and database proxy, which share the process, stall with them: ~3 ms of the assess p99 was the bench's own
 * client (measured side by side).
 */
export const httpClient = (sockets = 1) => {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  type Options = { method: string; headers?: Record<string, string>; body?: string | Uint8Array };
  type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };
  const send = (url: string, options: Options): Promise<Answer> =>
    new Promise<Answer>((resolve, reject) => {
      const body = options.body ?? '';
      const req = httpRequest(
        url,
        { method: options.method, agent, headers: { ...options.headers, 'content-length': String(Buffer.byteLength(body)) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        // a kept-alive socket the server closed as the request went out (its keep-alive timeout): sent again on a new
        // one, as browsers and the SDK do (Node's documented pattern); writes carry idempotency keys for this
        if (req.reusedSocket && error.code === 'ECONNRESET') resolve(send(url, options));
        else reject(error);
      });
      req.end(body);
    });
  return send;
};

/**
 * The AI gateway a bench calls the Bedrock stand-in through: production's models and retries across the two regions,
 * a quota wait of up to 10 s; `config` overrides what a section measures differently.
 */
export const benchGateway = (deps: Pick<GatewayDeps, 'db' | 'client' | 'now'>, config: Partial<GatewayConfig> = {}): AiGateway =>
  createAiGateway({
    ...deps,
    config: {
      regions: { primary: 'us-east-1', fallback: 'us-west-2' },
      models: DEFAULT_AI_MODELS,
      attemptsPerRegion: 3,
      backoff: { baseMs: 200, capMs: 2_000 },
      shedderDisabled: false,
      quotaMaxWaitMs: 10_000,
      followUpQuotaMaxWaitMs: FOLLOW_UP_QUOTA_MAX_WAIT_MS,
      attemptTimeoutMs: ATTEMPT_TIMEOUT_DEFAULTS_MS,
      ...config,
    },
  });
