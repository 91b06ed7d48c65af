/**
 * The twin's API Gateway, rendered from the synthesized HTTP API: its routes (literal segments win over
 * parameters, as in API Gateway), its stage throttles (a token bucket per route, checked first), its JWT
 * authorizer (the issuer and audience of the template) on the routes that have it, its CORS
 * configuration. A matched request becomes the HTTP API v2 event and is handed to the integration's
 * function in the twin's Lambda runtime; what API Gateway answers instead of the integration (400, 413,
 * 429, 500, 504) it answers too.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { JWTPayload } from 'jose';
import { HTTP_API_INTEGRATION_TIMEOUT_SECONDS } from '#manifest';
import { bearerToken } from '#core/auth/jwt';
import type { HttpEvent } from '#core/http/route';
import type { PlanApi, PlanRoute } from '../assembly/plan';
import type { InvokeOutcome } from '../runtime/lambda';
import { fullBucket, takeToken, type TokenBucket } from './token-bucket';

interface CompiledRoute {
  route: PlanRoute;
  segments: string[];
  literals: number;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit
const INTEGRATION_TIMEOUT_MS = HTTP_API_INTEGRATION_TIMEOUT_SECONDS * 1000;

/** API Gateway's own answers, when it cannot hand the function's: throttled, body too large, function failed, gave up waiting. */
const GATEWAY_MESSAGES = {
  400: 'Bad Request',
  413: 'Request Entity Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  504: 'Gateway Timeout',
} as const;

class GatewayError extends Error {
  constructor(
    readonly status: keyof typeof GATEWAY_MESSAGES,
    message: string,
  ) {
    super(message);
  }
}

const compileRoutes = (routes: PlanRoute[]): CompiledRoute[] =>
  routes
    .map((route) => {
      const segments = route.path.split('/').filter(Boolean);
      return { route, segments, literals: segments.filter((s) => !s.startsWith('{')).length };
    })
    // most literal segments first, so /api/analysis/feedback-metrics beats /api/analysis/{analysis_id}
    .sort((a, b) => b.literals - a.literals);

/** A path segment decoded, or undefined when its percent-encoding is malformed (`%ZZ`, `%E0%A4`). */
const decodeSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

/**
 * The route a path names, with its decoded parameters. A segment whose percent-encoding is malformed
 * matches no literal segment (so a path no route takes is a 404, as from API Gateway); when it falls
 * in a route's parameter, the match is `undecodable` and the gateway answers 400 Bad Request, as API
 * Gateway does, without invoking the function.
 */
const matchRoute = (routes: CompiledRoute[], method: string, path: string) => {
  const parts = path.split('/').filter(Boolean).map(decodeSegment);
  for (const compiled of routes) {
    if (compiled.route.method !== method || compiled.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let undecodable = false;
    const ok = compiled.segments.every((segment, i) => {
      if (segment.startsWith('{')) {
        if (parts[i] === undefined) undecodable = true;
        else params[segment.slice(1, -1)] = parts[i];
        return true;
      }
      return segment === parts[i];
    });
    if (ok) return { route: compiled.route, params, undecodable };
  }
  return undefined;
};

/** API Gateway hands JWT claims to the function as strings; arrays become "[a b]". */
const claimsAsGatewayRendersThem = (payload: JWTPayload): Record<string, string> =>
  Object.fromEntries(
    Object.entries(payload).map(([k, v]) => [k, Array.isArray(v) ? `[${v.join(' ')}]` : typeof v === 'string' ? v : JSON.stringify(v)]),
  );

/** The body, or a 413 error past API Gateway's limit (the rest is read and dropped, so the client gets the answer). */
const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size - chunk.length <= MAX_BODY_BYTES) {
        // the chunk that crossed the limit: answer once
        chunks.length = 0;
        reject(new GatewayError(413, `body over ${MAX_BODY_BYTES} bytes`));
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const isText = (contentType: string | undefined) => !contentType || /json|text|xml|urlencoded|javascript/.test(contentType);

export interface GatewayExtra {
  contentType: string;
  body: string | Buffer;
  /** 200 unless given */
  status?: number;
  /** instead of `cache-control: no-cache` */
  headers?: Record<string, string>;
}

export interface GatewayOptions {
  api: Pick<PlanApi, 'id' | 'routes' | 'cors' | 'throttles'>;
  /** verifies a bearer token as the synthesized JWT authorizer does (issuer, audience, signature, expiry) */
  authorize: (token: string) => Promise<JWTPayload>;
  /** invokes the integration's function in the twin's Lambda runtime */
  invoke: (functionId: string, event: HttpEvent, requestId: string) => Promise<InvokeOutcome>;
  /** extra unauthenticated GET paths the twin itself serves (the API reference) */
  extras?: Record<string, () => GatewayExtra>;
  /** what the twin serves outside /api/ (GET and HEAD): the web app, as CloudFront serves it deployed */
  site?: (pathname: string) => GatewayExtra;
  onRequest?: (line: string) => void;
  /** what the twin changes in a function's answer before the client gets it (presigned URLs mapped to where a user reaches them) */
  rewriteAnswer?: (answer: APIGatewayProxyStructuredResultV2) => APIGatewayProxyStructuredResultV2;
  /** how long the gateway waits for a function (default API Gateway's 30 s) */
  integrationTimeoutMs?: number;
  account: string;
  /** the throttles' clock in ms (default performance.now) */
  now?: () => number;
}

/** The key of the bucket a request draws from: its route's, or API Gateway's catch-all `$default` for a preflight or a request no route takes. */
const DEFAULT_ROUTE_KEY = '$default';

/**
 * Whether a request on that route may pass the stage's throttles now: the route's own bucket, or one
 * with the stage default's figures; without either, only the account-level quota applies (not modelled).
 */
const createThrottles = (throttles: PlanApi['throttles'], now: () => number) => {
  const buckets = new Map<string, TokenBucket>();
  return (routeKey: string): boolean => {
    const throttle = throttles.routes[routeKey] ?? throttles.default;
    if (!throttle) return true;
    const at = now();
    const { allowed, bucket } = takeToken(buckets.get(routeKey) ?? fullBucket(throttle, at), throttle, at);
    buckets.set(routeKey, bucket);
    return allowed;
  };
};

/** The function's outcome, unless the gateway's own wait runs out first (504). */
const withinIntegrationTimeout = async (
  invocation: Promise<InvokeOutcome>,
  functionId: string,
  gatewayMs: number,
): Promise<InvokeOutcome> => {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GatewayError(504, `${functionId} ran past the gateway's ${gatewayMs} ms`)), gatewayMs);
  });
  return Promise.race([invocation, expiry]).finally(() => clearTimeout(timer));
};

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

export const createGateway = (options: GatewayOptions) => {
  const routes = compileRoutes(options.api.routes);
  const cors = options.api.cors;
  const withinThrottle = createThrottles(options.api.throttles, options.now ?? (() => performance.now()));
  const corsHeaders = (origin: string | undefined): Record<string, string> =>
    cors && origin && (cors.allowOrigins.includes(origin) || cors.allowOrigins.includes('*'))
      ? {
          'access-control-allow-origin': origin,
          ...(cors.exposeHeaders.length > 0 && { 'access-control-expose-headers': cors.exposeHeaders.join(',') }),
          vary: 'origin',
        }
      : {};

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://twin.local');
    const method = req.method ?? 'GET';
    const origin = req.headers.origin;
    const finish = (status: number) =>
      options.onRequest?.(`${method} ${url.pathname} → ${status} (${Math.round(performance.now() - started)} ms)`);
    const allowed = corsHeaders(origin);
    try {
      const extra =
        method === 'GET' || method === 'HEAD'
          ? (options.extras?.[url.pathname]?.() ??
            (options.site && !url.pathname.startsWith('/api/') ? options.site(url.pathname) : undefined))
          : undefined;
      if (extra) {
        const status = extra.status ?? 200;
        res.writeHead(status, { 'content-type': extra.contentType, ...(extra.headers ?? { 'cache-control': 'no-cache' }) });
        res.end(method === 'HEAD' ? undefined : extra.body);
        return finish(status);
      }
      const preflight = method === 'OPTIONS' && cors && origin && req.headers['access-control-request-method'];
      const match = preflight ? undefined : matchRoute(routes, method, url.pathname);
      // before the authorizer and the function, as in API Gateway: a throttled request costs neither
      if (!withinThrottle(match?.route.routeKey ?? DEFAULT_ROUTE_KEY)) throw new GatewayError(429, 'over the stage throttle');
      if (preflight) {
        res.writeHead(204, {
          ...allowed,
          ...(Object.keys(allowed).length > 0 && {
            'access-control-allow-headers': cors.allowHeaders.join(','),
            'access-control-allow-methods': cors.allowMethods.join(','),
            ...(cors.maxAge !== undefined && { 'access-control-max-age': String(cors.maxAge) }),
          }),
        });
        return void res.end();
      }
      if (!match) {
        send(res, 404, { message: 'Not Found' }, allowed);
        return finish(404);
      }
      if (match.undecodable) throw new GatewayError(400, 'a path parameter has a malformed percent-encoding');
      const { route, params } = match;
      let claims: Record<string, string> | undefined;
      if (route.authorization === 'JWT') {
        const token = bearerToken(req.headers.authorization);
        const payload = token ? await options.authorize(token).catch(() => undefined) : undefined;
        if (!payload) {
          send(res, 401, { message: 'Unauthorized' }, { ...allowed, 'www-authenticate': 'Bearer' });
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
        routeKey: route.routeKey,
        rawPath: url.pathname,
        rawQueryString: url.search.slice(1),
        headers,
        ...(Object.keys(query).length > 0 && { queryStringParameters: query }),
        ...(Object.keys(params).length > 0 && { pathParameters: params }),
        requestContext: {
          accountId: options.account,
          apiId: options.api.id,
          domainName: req.headers.host ?? '127.0.0.1',
          domainPrefix: options.api.id,
          http: {
            method,
            path: url.pathname,
            protocol: `HTTP/${req.httpVersion}`,
            sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
            userAgent: req.headers['user-agent'] ?? '',
          },
          requestId,
          routeKey: route.routeKey,
          stage: '$default',
          time: now.toUTCString(),
          timeEpoch: now.getTime(),
          authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: claims ?? {}, scopes: [] } },
        },
        ...(raw.length > 0 && { body: isText(contentType) ? raw.toString('utf8') : raw.toString('base64') }),
        isBase64Encoded: raw.length > 0 && !isText(contentType),
      };
      if (!claims) delete (event.requestContext as { authorizer?: unknown }).authorizer;
      const outcome = await withinIntegrationTimeout(
        options.invoke(route.functionId, event, requestId),
        route.functionId,
        options.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS,
      );
      // a function error or timeout is a failed integration: API Gateway answers 500
      if (!outcome.ok)
        throw new GatewayError(
          500,
          `${route.functionId}: ${outcome.error.errorType}: ${outcome.error.stack ?? outcome.error.errorMessage}`,
        );
      const result = outcome.value as APIGatewayProxyStructuredResultV2 | string | null;
      const answered: APIGatewayProxyStructuredResultV2 =
        typeof result === 'object' && result !== null && 'statusCode' in result
          ? result
          : {
              statusCode: 200,
              body: typeof result === 'string' ? result : JSON.stringify(result),
              headers: { 'content-type': 'application/json' },
            };
      const structured = options.rewriteAnswer ? options.rewriteAnswer(answered) : answered;
      const status = structured.statusCode ?? 200;
      const body =
        structured.body === undefined ? '' : structured.isBase64Encoded ? Buffer.from(structured.body, 'base64') : structured.body;
      // API Gateway adds its request id as apigw-requestid; the handlers put the same id in x-request-id
      res.writeHead(status, { ...allowed, ...(structured.headers as Record<string, string> | undefined), 'apigw-requestid': requestId });
      res.end(body);
      finish(status);
    } catch (error) {
      const status = error instanceof GatewayError ? error.status : 500;
      send(res, status, { message: GATEWAY_MESSAGES[status] }, allowed);
      options.onRequest?.(`${method} ${url.pathname} → ${status}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
};
