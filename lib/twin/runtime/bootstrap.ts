/**
 * The twin's Lambda runtime inside one execution environment (a worker thread of its own, with the
 * function's template environment as its whole process.env). Before the handler loads it sets up what
 * the environment of a deployed function has around it:
 * - the network: AWS hostnames lead to the twin's local endpoints (its "DNS"); a host the function
 *   cannot reach from where it is placed (the database proxy from outside the VPC) never answers;
 * - trust: the twin's certificate authority joins the default CA store, as Amazon's CAs are in Lambda's;
 * - the task root: the handler's bundle can require Node's built-ins and its own files, nothing else
 *   (no node_modules of the project, no stand-in packages);
 * - logs: whatever the function writes goes to the twin, in order with the invocation results.
 * Then it answers invocations one at a time, as a Lambda execution environment does, each with its own
 * X-Ray trace header (`_X_AMZN_TRACE_ID`, as active tracing sets it: the functions' tracer records under
 * it; with no X-Ray daemon here, what it sends over UDP is dropped).
 * Bundled to plain JavaScript (lib/twin/assembly/bundles.ts): worker threads skip jest's and tsx's transforms.
 */
import { randomBytes } from 'node:crypto';
import Module from 'node:module';
import net from 'node:net';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import tls from 'node:tls';
import { parentPort, workerData } from 'node:worker_threads';

export interface NetworkRoute {
  /** host name pattern: `*.amazonaws.com` style, one `*` for any run of characters */
  host: string;
  /** where connections to it go; `blackhole` never connects (a security group dropping the packets) */
  to: { host: string; port: number } | 'blackhole';
}

export interface BootstrapData {
  /** folder of the function's bundle (index.js) */
  taskRoot: string;
  /** `index.handler` */
  handler: string;
  routes: NetworkRoute[];
  caPem: string;
}

export type ToRuntime = {
  type: 'invoke';
  id: string;
  event: unknown;
  context: {
    awsRequestId: string;
    deadline: number;
    functionName: string;
    functionVersion: string;
    invokedFunctionArn: string;
    memoryLimitInMB: string;
    logGroupName: string;
    logStreamName: string;
  };
};

export type FromRuntime =
  | { type: 'ready'; initMs: number }
  | { type: 'init-error'; error: SerializedError }
  | { type: 'result'; id: string; value: unknown }
  | { type: 'error'; id: string; error: SerializedError }
  | { type: 'log'; stream: 'stdout' | 'stderr'; text: string };

export interface SerializedError {
  errorType: string;
  errorMessage: string;
  stack?: string;
}

/** What the nodejs24.x runtime reports for a callback-style handler (aws-lambda-nodejs-runtime-interface-client). */
const CALLBACK_HANDLER_REFUSED =
  'ERROR: AWS Lambda has removed support for callback-based function handlers starting with Node.js 24. You need to modify this function to use a supported handler signature to use Node.js 24 or later. For more information see https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html.';

const serialize = (error: unknown): SerializedError => {
  const e = error instanceof Error ? error : new Error(String(error));
  return { errorType: e.name, errorMessage: e.message, ...(e.stack && { stack: e.stack }) };
};

const post = (message: FromRuntime) => parentPort!.postMessage(message);

const matches = (pattern: string, host: string): boolean =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  ).test(host);

/** Rewrites where sockets connect: every client (http, https, http2, fetch, pg) ends in net.Socket#connect. */
const routeConnections = (routes: NetworkRoute[]) => {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function routed(this: net.Socket, ...args: unknown[]) {
    const [first] = args;
    // net.connect() hands over its arguments already normalized, as one array [options, callback]
    const normalized = Array.isArray(first) ? (first as unknown[]) : undefined;
    const head = normalized ? normalized[0] : first;
    const options: Record<string, unknown> | undefined = head && typeof head === 'object' ? (head as Record<string, unknown>) : undefined;
    const host = options ? options.host : typeof args[1] === 'string' ? args[1] : undefined;
    const route = typeof host === 'string' ? routes.find((r) => matches(r.host, host)) : undefined;
    if (!route) return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    if (route.to === 'blackhole') return this; // no SYN-ACK ever: the caller's own timeout decides
    const rewritten = { ...options, host: route.to.host, port: route.to.port };
    if (normalized) {
      normalized[0] = rewritten; // in place: the array carries node's "already normalized" mark
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    }
    const callback = args.find((a) => typeof a === 'function');
    return (connect as (...a: unknown[]) => net.Socket).apply(this, callback ? [rewritten, callback] : [rewritten]);
  } as typeof connect;
};

/** Lambda's task root holds the bundle only: anything else the bundle requires is missing, as there. */
const confineModules = (taskRoot: string) => {
  const original = (Module as unknown as { _resolveFilename: (request: string, parent: unknown, ...rest: unknown[]) => string })
    ._resolveFilename;
  (Module as unknown as { _resolveFilename: typeof original })._resolveFilename = function confined(request, parent, ...rest) {
    if (Module.isBuiltin(request)) return original.call(this, request, parent, ...rest);
    const from = (parent as { filename?: string } | undefined)?.filename;
    const local = request.startsWith('.') || isAbsolute(request);
    const candidate = local && from ? resolve(dirname(from), request) : local ? resolve(request) : undefined;
    if (candidate && (candidate === taskRoot || candidate.startsWith(taskRoot + sep))) return original.call(this, request, parent, ...rest);
    throw Object.assign(new Error(`Cannot find module '${request}'\nRequire stack:\n- ${from ?? taskRoot}`), { code: 'MODULE_NOT_FOUND' });
  };
};

/** stdout/stderr travel with the results (ordered), instead of the worker's own asynchronous stdio pipe. */
const captureOutput = () => {
  for (const stream of ['stdout', 'stderr'] as const) {
    (process[stream] as { write: unknown }).write = (chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      post({ type: 'log', stream, text: typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8') });
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') (done as () => void)();
      return true;
    };
  }
};

/** A new trace per invocation, sampled (a trace id is 1-<epoch seconds, hex>-<96 random bits>). */
const traceHeader = (): string =>
  `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')};Parent=${randomBytes(8).toString('hex')};Sampled=1`;

const main = async () => {
  const data = workerData as BootstrapData;
  const started = performance.now();
  captureOutput();
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), data.caPem]);
  routeConnections(data.routes);
  if (process.env.NODE_OPTIONS?.includes('--enable-source-maps')) process.setSourceMapsEnabled(true);
  const taskRoot = resolve(data.taskRoot);
  // V8's code cache beside the bundles: later cold starts of the same bundle compile less (the twin's
  // own speed-up; a Lambda cold start is measured by npm run bench -- bundles)
  Module.enableCompileCache?.(join(taskRoot, '..', '.compile-cache'));
  confineModules(taskRoot);

  const [file, exportName] = data.handler.split(/\.(?=[^.]+$)/) as [string, string];
  let handler: (event: unknown, context: unknown) => Promise<unknown>;
  try {
    const mod = Module.createRequire(join(taskRoot, 'index.js'))(join(taskRoot, `${file}.js`)) as Record<string, unknown>;
    const candidate = mod[exportName];
    if (typeof candidate !== 'function')
      throw Object.assign(new Error(`${data.handler} is undefined or not exported`), { name: 'Runtime.HandlerNotFound' });
    // nodejs24.x has no callback-style handlers: its runtime client refuses, at init, a handler that
    // declares a third parameter (the callback), even an async one; the twin never passed a callback
    if (candidate.length >= 3) throw Object.assign(new Error(CALLBACK_HANDLER_REFUSED), { name: 'Runtime.CallbackHandlerDeprecated' });
    handler = candidate as typeof handler;
  } catch (error) {
    post({ type: 'init-error', error: serialize(error) });
    return;
  }
  post({ type: 'ready', initMs: performance.now() - started });

  parentPort!.on('message', (message: ToRuntime) => {
    if (message.type !== 'invoke') return;
    const { deadline, ...context } = message.context;
    process.env._X_AMZN_TRACE_ID = traceHeader();
    const lambdaContext = {
      ...context,
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    Promise.resolve()
      .then(() => handler(message.event, lambdaContext))
      .then(
        (value) => post({ type: 'result', id: message.id, value: value === undefined ? null : value }),
        (error: unknown) => post({ type: 'error', id: message.id, error: serialize(error) }),
      );
  });
};

// a crash outside an invocation's promise ends the environment, as the Lambda runtime exits
process.on('uncaughtException', (error) => {
  post({ type: 'init-error', error: serialize(error) });
  process.exit(1);
});

void main();
