/**
 * The twin's API Gateway: matches a request to a manifest route (literal segments win over
 * parameters, as in API Gateway), runs the JWT authorizer on investigator and admin routes, builds
 * the HTTP API v2 event, and calls the same handler module CDK deploys.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { JWTPayload } from 'jose';
import { CORS, HTTP_API_INTEGRATION_TIMEOUT_SECONDS, httpRoutes, type FunctionSpec, type HttpTrigger } from '../manifest';
import { bearerToken, verifyAccessToken } from '../../layers/core/auth/jwt';
import type { HttpEvent } from '../../layers/core/http/route';

export type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

interface CompiledRoute { trigger: HttpTrigger; fn: FunctionSpec; segments: string[]; literals: number }

const MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit
const INTEGRATION_TIMEOUT_MS = HTTP_API_INTEGRATION_TIMEOUT_SECONDS * 1000;

/** API Gateway's own answers, when it cannot hand the function's: body too large, function failed, gave up waiting. */
const GATEWAY_MESSAGES = { 413: 'Request Entity Too Large', 500: 'Internal Server Error', 504: 'Gateway Timeout' } as const;

class GatewayError extends Error {
  constructor(readonly status: keyof typeof GATEWAY_MESSAGES, message: string) { super(message); }
}

export const compileRoutes = (): CompiledRoute[] =>
  httpRoutes()
    .map(({ fn, ...trigger }) => {
      const segments = trigger.path.split('/').filter(Boolean);
      return { trigger, fn, segments, literals: segments.filter((s) => !s.startsWith('{')).length };
    })
    // most literal segments first, so /api/analysis/feedback-metrics beats /api/analysis/{analysis_id}
    .sort((a, b) => b.literals - a.literals);

export const matchRoute = (routes: CompiledRoute[], method: string, path: string) => {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  for (const route of routes) {
    if (route.trigger.method !== method || route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = route.segments.every((segment, i) => {
      if (segment.startsWith('{')) {
        params[segment.slice(1, -1)] = parts[i]!;
        return true;
      }
      return segment === parts[i];
    });
    if (ok) return { route, params };
  }
  return undefined;
};

/** API Gateway hands JWT claims to the function as strings; arrays become "[a b]". */
export const claimsAsGatewayRendersThem = (payload: JWTPayload): Record<string, string> =>
  Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, Array.isArray(v) ? `[${v.join(' ')}]` : typeof v === 'string' ? v : JSON.stringify(v)]));

/** The body, or a 413 error past API Gateway's limit (the rest is read and dropped, so the client gets the answer). */
const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size - chunk.length <= MAX_BODY_BYTES) { // the chunk that crossed the limit: answer once
        chunks.length = 0;
        reject(new GatewayError(413, `body over ${MAX_BODY_BYTES} bytes`));
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const isText = (contentType: string | undefined) => !contentType || /json|text|xml|urlencoded|javascript/.test(contentType);

export interface GatewayOptions {
  handlers: Map<string, LambdaHandler>;
  corsOrigin: string;
  /** extra unauthenticated paths the twin itself serves (JWKS) */
  extras: Record<string, () => unknown>;
  onRequest?: (line: string) => void;
  /** how long the gateway waits for a function (default INTEGRATION_TIMEOUT_MS, or the function's shorter timeout) */
  integrationTimeoutMs?: number;
}

export const lambdaContext = (fn: FunctionSpec, requestId: string): Context => {
  const deadline = Date.now() + fn.timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: fn.id,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${fn.id}`,
    memoryLimitInMB: String(fn.memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${fn.id}`,
    logStreamName: 'twin',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/**
 * The function's answer, unless time runs out first: the function's own timeout is a function error
 * (500, as Lambda reports it), the gateway's shorter wait a 504.
 */
const withinTimeouts = async (invocation: Promise<unknown>, fn: FunctionSpec, gatewayMs: number): Promise<unknown> => {
  const functionMs = fn.timeoutSeconds * 1000;
  const timeout = functionMs < gatewayMs
    ? new GatewayError(500, `${fn.id}: Task timed out after ${fn.timeoutSeconds} seconds`)
    : new GatewayError(504, `${fn.id} ran past the gateway's ${gatewayMs} ms`);
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(timeout), Math.min(functionMs, gatewayMs)); });
  return Promise.race([invocation, expiry]).finally(() => clearTimeout(timer));
};

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

export const createGateway = (options: GatewayOptions) => {
  const routes = compileRoutes();
  const cors = {
    'access-control-allow-origin': options.corsOrigin,
    'access-control-allow-headers': CORS.allowHeaders.join(','),
    'access-control-expose-headers': CORS.exposeHeaders.join(','),
    'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,OPTIONS',
    vary: 'origin',
  };

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://twin.local');
    const method = req.method ?? 'GET';
    const finish = (status: number) => options.onRequest?.(`${method} ${url.pathname} → ${status} (${Math.round(performance.now() - started)} ms)`);
    try {
      const extra = options.extras[url.pathname];
      if (extra && method === 'GET') return send(res, 200, extra());
      if (method === 'OPTIONS') {
        res.writeHead(204, { ...cors, 'access-control-max-age': String(CORS.maxAgeSeconds) });
        return void res.end();
      }
      const match = matchRoute(routes, method, url.pathname);
      if (!match) {
        send(res, 404, { message: 'Not Found' }, cors);
        return finish(404);
      }
      const { route, params } = match;
      let claims: Record<string, string> | undefined;
      if (route.trigger.access === 'investigator' || route.trigger.access === 'admin') {
        const token = bearerToken(req.headers.authorization);
        const payload = token ? await verifyAccessToken(token).catch(() => undefined) : undefined;
        if (!payload) {
          send(res, 401, { message: 'Unauthorized' }, { ...cors, 'www-authenticate': 'Bearer' });
          return finish(401);
        }
        claims = claimsAsGatewayRendersThem(payload);
      }
      const raw = await readBody(req);
      const contentType = req.headers['content-type'];
      const requestId = randomUUID();
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
      const query: Record<string, string> = {};
      for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
      const now = new Date();
      const event: HttpEvent = {
        version: '2.0',
        routeKey: `${route.trigger.method} ${route.trigger.path}`,
        rawPath: url.pathname,
        rawQueryString: url.search.slice(1),
        headers,
        ...(Object.keys(query).length > 0 && { queryStringParameters: query }),
        ...(Object.keys(params).length > 0 && { pathParameters: params }),
        requestContext: {
          accountId: '000000000000',
          apiId: 'twin',
          domainName: req.headers.host ?? '127.0.0.1',
          domainPrefix: 'twin',
          http: { method, path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: req.headers['user-agent'] ?? '' },
          requestId,
          routeKey: `${route.trigger.method} ${route.trigger.path}`,
          stage: '$default',
          time: now.toUTCString(),
          timeEpoch: now.getTime(),
          authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: claims ?? {}, scopes: [] } },
        },
        ...(raw.length > 0 && { body: isText(contentType) ? raw.toString('utf8') : raw.toString('base64') }),
        isBase64Encoded: raw.length > 0 && !isText(contentType),
      };
      if (!claims) delete (event.requestContext as { authorizer?: unknown }).authorizer;
      const handler = options.handlers.get(route.fn.id);
      if (!handler) throw new Error(`no handler loaded for ${route.fn.id}`);
      const result = (await withinTimeouts(handler(event, lambdaContext(route.fn, requestId)), route.fn,
        options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS)) as APIGatewayProxyStructuredResultV2 | string | undefined;
      const structured = typeof result === 'object' && result !== null && 'statusCode' in result
        ? result
        : { statusCode: 200, body: JSON.stringify(result ?? null), headers: { 'content-type': 'application/json' } };
      const status = structured.statusCode ?? 200;
      const body = structured.body === undefined ? '' : structured.isBase64Encoded ? Buffer.from(structured.body, 'base64') : structured.body;
      // API Gateway adds its request id as apigw-requestid; the handlers put the same id in x-request-id
      res.writeHead(status, { ...cors, ...(structured.headers as Record<string, string> | undefined), 'apigw-requestid': requestId });
      res.end(body);
      finish(status);
    } catch (error) {
      const status = error instanceof GatewayError ? error.status : 500; // anything else: the function failed
      send(res, status, { message: GATEWAY_MESSAGES[status] }, cors);
      options.onRequest?.(`${method} ${url.pathname} → ${status}: ${error instanceof Error ? error.stack : String(error)}`);
    }
  };
};
