/**
 * Lambda on this machine: each function runs in execution environments of its own — a worker thread
 * with the function's template environment as its whole process.env, its memory as the heap limit, its
 * bundle as the task root (./bootstrap.ts) — started on the first invocation (a cold start) and kept
 * warm after it, one invocation at a time each; concurrent invocations start more environments, so
 * module state is per environment, as in Lambda. An invocation past the function's timeout ends its
 * environment (the next one starts cold) and fails as Lambda reports it: `Task timed out after N seconds`.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PlanFunction } from '../assembly/plan';
import type { BootstrapData, FromRuntime, NetworkRoute, SerializedError, ToRuntime } from './bootstrap';
import { ENV } from '#manifest/runtime-names';
import type { Credentials } from '../iam/decisions';

export type { NetworkRoute };

/** How one invocation ended: the handler's value, or the error Lambda reports. */
type Settled = { ok: true; value: unknown } | { ok: false; error: SerializedError; timedOut: boolean };

export type InvokeOutcome = Settled & { durationMs: number; coldStart: boolean };

export interface LogLine {
  functionId: string;
  requestId?: string;
  stream: 'stdout' | 'stderr' | 'platform';
  text: string;
  at: Date;
}

interface FunctionStats {
  invocations: number;
  errors: number;
  timeouts: number;
  coldStarts: number;
  environments: number;
}

/** One invocation, as Lambda's REPORT line and metrics describe it. */
export interface Invocation {
  requestId: string;
  startedAt: Date;
  durationMs: number;
  coldStart: boolean;
  ok: boolean;
  timedOut: boolean;
  errorType?: string;
}

export interface RuntimeOptions {
  bundlesDir: string;
  bootstrapPath: string;
  caPem: string;
  routes: (fn: PlanFunction) => NetworkRoute[];
  credentials: (fn: PlanFunction) => Credentials;
  region: string;
  onLog?: (line: LogLine) => void;
  /**
   * most environments a function may run at once (default DEFAULT_MAX_ENVIRONMENTS): Lambda scales further, the twin
   * need not, but never below what an event source mapping's maximum concurrency lets run
   */
  maxEnvironments?: (fn: PlanFunction) => number;
}

export const DEFAULT_MAX_ENVIRONMENTS = 10;

/** Lambda's reserved variables: the runtime sets them beside the template's own. */
const runtimeEnvironment = (fn: PlanFunction, credentials: Credentials, region: string, taskRoot: string): Record<string, string> => ({
  AWS_REGION: region,
  AWS_DEFAULT_REGION: region,
  AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
  AWS_LAMBDA_FUNCTION_NAME: fn.functionName,
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
  AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
  AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
  AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.functionName}`,
  AWS_LAMBDA_LOG_STREAM_NAME: `twin/[$LATEST]${randomUUID().replace(/-/g, '')}`,
  AWS_ACCESS_KEY_ID: credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  AWS_SESSION_TOKEN: credentials.sessionToken,
  LAMBDA_TASK_ROOT: taskRoot,
  _HANDLER: fn.handler,
  TZ: ':UTC',
  LANG: 'en_US.UTF-8',
  // the twin's one addition to them: every answer of an HTTP route is checked against its contract (a deployed stage does not pay for it)
  [ENV.responseValidation]: 'strict',
});

/**
 * An environment's heap, as Lambda's Node.js runtime sizes it from the function's memory: its bootstrap starts node
 * with --max-semi-space-size at a twentieth of the memory and --max-old-space-size at nine tenths (the new space a
 * tenth, half of it each semi-space); V8's young generation is three semi-spaces. V8's own defaults gave a 128 MB
 * function a 320 MB heap, where Lambda's is 140 MB: the twin ran what Lambda ends out of memory.
 */
const lambdaHeapLimits = (memoryMb: number) => {
  const newSpaceMb = Math.floor(memoryMb / 10);
  return { maxOldGenerationSizeMb: memoryMb - newSpaceMb, maxYoungGenerationSizeMb: 3 * Math.floor(newSpaceMb / 2) };
};

const TIMED_OUT = 'Sandbox.Timedout';

class Environment {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  busy = false;
  private pending?: { id: string; resolve: (outcome: Settled) => void; requestId: string };
  private dead?: SerializedError;
  private readonly exited: Promise<void>;

  constructor(
    readonly fn: PlanFunction,
    options: RuntimeOptions,
    private readonly log: (line: Omit<LogLine, 'functionId' | 'at'>) => void,
  ) {
    const taskRoot = join(options.bundlesDir, fn.id);
    const data: BootstrapData = { taskRoot, handler: fn.handler, routes: options.routes(fn), caPem: options.caPem };
    this.worker = new Worker(options.bootstrapPath, {
      env: { ...fn.environment, ...runtimeEnvironment(fn, options.credentials(fn), options.region, taskRoot) },
      workerData: data,
      // none of the twin's own node flags, as Lambda's runtime starts node with its own: under `npm start` they load
      // tsx's hooks into each environment, which cost a cold call through the gateway 270 → 180 ms (the bundle is plain JS)
      execArgv: [],
      resourceLimits: lambdaHeapLimits(fn.memoryMb),
      stdout: true, // output arrives through the runtime's messages; these catch what slips past
      stderr: true,
    });
    for (const stream of ['stdout', 'stderr'] as const) {
      this.worker[stream].on('data', (chunk: Buffer) =>
        this.log({ stream, text: chunk.toString('utf8'), ...(this.pending && { requestId: this.pending.requestId }) }),
      );
    }
    let settle: (error?: SerializedError) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      settle = (error) =>
        error ? reject(Object.assign(new Error(error.errorMessage), { name: error.errorType, serialized: error })) : resolve();
    });
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: FromRuntime) => {
      switch (message.type) {
        case 'ready':
          return settle();
        case 'init-error':
          return this.fail(message.error, settle);
        case 'log':
          return this.log({ stream: message.stream, text: message.text, ...(this.pending && { requestId: this.pending.requestId }) });
        case 'result':
          return this.finish(message.id, { ok: true, value: message.value });
        case 'error':
          return this.finish(message.id, { ok: false, error: message.error, timedOut: false });
      }
    });
    this.worker.on('error', (error) =>
      this.fail({ errorType: 'Runtime.ExitError', errorMessage: error.message, ...(error.stack && { stack: error.stack }) }, settle),
    );
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        this.fail(
          {
            errorType: 'Runtime.ExitError',
            errorMessage: `RequestId: ${this.pending?.requestId ?? '-'} Error: Runtime exited with error: exit status ${code}`,
          },
          settle,
        );
        resolve();
      }),
    );
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  private fail(error: SerializedError, settle: (error?: SerializedError) => void) {
    this.dead ??= error;
    settle(error);
    if (this.pending) this.finish(this.pending.id, { ok: false, error, timedOut: false });
  }

  private finish(id: string, outcome: Settled) {
    if (this.pending?.id !== id) return;
    const { resolve } = this.pending;
    this.pending = undefined;
    resolve(outcome);
  }

  invoke(event: unknown, requestId: string, timeoutMs: number): Promise<Settled> {
    const id = randomUUID();
    const deadline = Date.now() + timeoutMs;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.pending?.id !== id) return;
        const seconds = (timeoutMs / 1000).toFixed(2);
        this.log({
          stream: 'platform',
          requestId,
          text: `${new Date().toISOString()} ${requestId} Task timed out after ${seconds} seconds\n`,
        });
        this.finish(id, {
          ok: false,
          timedOut: true,
          error: { errorType: TIMED_OUT, errorMessage: `${new Date().toISOString()} ${requestId} Task timed out after ${seconds} seconds` },
        });
        this.dead ??= { errorType: TIMED_OUT, errorMessage: 'timed out' };
        void this.stop();
      }, timeoutMs);
      this.pending = {
        id,
        requestId,
        resolve: (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        },
      };
      const fn = this.fn;
      const message: ToRuntime = {
        type: 'invoke',
        id,
        event,
        context: {
          awsRequestId: requestId,
          deadline,
          functionName: fn.functionName,
          functionVersion: '$LATEST',
          invokedFunctionArn: fn.arn,
          memoryLimitInMB: String(fn.memoryMb),
          logGroupName: `/aws/lambda/${fn.functionName}`,
          logStreamName: 'twin',
        },
      };
      this.worker.postMessage(message);
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
    await this.exited;
  }
}

/** All execution environments of one function. */
class FunctionPool {
  readonly stats: FunctionStats = { invocations: 0, errors: 0, timeouts: 0, coldStarts: 0, environments: 0 };
  /** the latest invocations, oldest first */
  readonly history: Invocation[] = [];
  private readonly idle: Environment[] = [];
  private readonly all = new Set<Environment>();
  private readonly waiting: (() => void)[] = [];
  private readonly maxEnvironments: number;

  constructor(
    readonly fn: PlanFunction,
    private readonly options: RuntimeOptions,
  ) {
    this.maxEnvironments = options.maxEnvironments?.(fn) ?? DEFAULT_MAX_ENVIRONMENTS;
  }

  private environment(): { env: Environment; cold: boolean } | undefined {
    for (let env = this.idle.pop(); env; env = this.idle.pop()) if (env.alive) return { env, cold: false };
    if (this.all.size >= this.maxEnvironments) return undefined;
    const env = new Environment(this.fn, this.options, (line) => this.options.onLog?.({ functionId: this.fn.id, at: new Date(), ...line }));
    this.all.add(env);
    this.stats.environments = this.all.size;
    return { env, cold: true };
  }

  async invoke(event: unknown, options: { requestId?: string; timeoutMs?: number } = {}): Promise<InvokeOutcome> {
    const requestId = options.requestId ?? randomUUID();
    let slot = this.environment();
    while (!slot) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      slot = this.environment();
    }
    const { env, cold } = slot;
    const startedAt = new Date();
    // Lambda's Duration (and its timeout) runs from the invoke, after the cold start's Init Duration
    let started = performance.now();
    const timeoutMs = options.timeoutMs ?? this.fn.timeoutSeconds * 1000;
    this.stats.invocations++;
    if (cold) this.stats.coldStarts++;
    let outcome: Settled;
    try {
      await env.ready;
      started = performance.now();
      outcome = await env.invoke(event, requestId, timeoutMs);
    } catch (error) {
      const serialized = (error as { serialized?: SerializedError }).serialized ?? {
        errorType: 'Runtime.Unknown',
        errorMessage: String(error),
      };
      outcome = { ok: false, error: serialized, timedOut: false };
    }
    if (!outcome.ok) {
      this.stats.errors++;
      if (outcome.timedOut) this.stats.timeouts++;
    }
    if (env.alive) this.idle.push(env);
    else {
      this.all.delete(env);
      this.stats.environments = this.all.size;
      void env.stop();
    }
    this.waiting.shift()?.();
    // a timed-out invocation lasted its timeout, as Lambda reports it (a timer may fire a fraction of a ms early)
    const elapsed = performance.now() - started;
    const durationMs = !outcome.ok && outcome.timedOut ? Math.max(elapsed, timeoutMs) : elapsed;
    this.history.push({
      requestId,
      startedAt,
      durationMs,
      coldStart: cold,
      ok: outcome.ok,
      timedOut: !outcome.ok && outcome.timedOut,
      ...(!outcome.ok && { errorType: outcome.error.errorType }),
    });
    if (this.history.length > 1000) this.history.splice(0, 500);
    return { ...outcome, durationMs, coldStart: cold };
  }

  async stop(): Promise<void> {
    await Promise.all([...this.all].map((env) => env.stop()));
    this.all.clear();
    this.idle.length = 0;
  }
}

export interface LambdaRuntime {
  invoke: (functionId: string, event: unknown, options?: { requestId?: string; timeoutMs?: number }) => Promise<InvokeOutcome>;
  stats: (functionId: string) => FunctionStats;
  invocations: (functionId: string) => Invocation[];
  stop: () => Promise<void>;
}

export const startLambdaRuntime = (functions: PlanFunction[], options: RuntimeOptions): LambdaRuntime => {
  const pools = new Map(functions.map((fn) => [fn.id, new FunctionPool(fn, options)]));
  const pool = (id: string) => {
    const found = pools.get(id);
    if (!found) throw new Error(`no function '${id}' in the twin`);
    return found;
  };
  return {
    invoke: (id, event, invokeOptions) => pool(id).invoke(event, invokeOptions),
    stats: (id) => ({ ...pool(id).stats }),
    invocations: (id) => [...pool(id).history],
    stop: async () => {
      await Promise.all([...pools.values()].map((p) => p.stop()));
    },
  };
};

/** What Lambda answers a caller IAM does not let invoke the function. */
export const deniedInvocation = (errorMessage: string): InvokeOutcome => ({
  ok: false,
  timedOut: false,
  durationMs: 0,
  coldStart: false,
  error: { errorType: 'AccessDeniedException', errorMessage },
});
