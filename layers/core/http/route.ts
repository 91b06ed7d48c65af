/**
 * The one wrapper every HTTP function uses (middy). It enforces the access level the service
 * manifest declares for the route — declared once, enforced here in every deployment, behind the API
 * Gateway authorizer —, parses the JSON body, and maps errors to the API's error shape.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type * as z from 'zod';
import { httpRoutes, type Access } from '../../../lib/manifest';
import { callerFromClaims, callerFromEvent, type Caller } from '../auth/caller';
import { cronSecret, sameSecret } from '../auth/cron';
import { bearerToken, InvalidTokenError, verifyAccessToken } from '../auth/jwt';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors';
import { lambdaContextLogging, logger } from '../logger';
import { handlerTracing } from '../tracer';
import { enforceRateLimit } from '../ratelimit/limiter';
import { ApiError, badRequest, errorBody, forbidden, unauthorized, validationFailed } from './errors';
import { checkWith, unsafeTextIssues } from './strings';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export interface RouteRequest {
  event: HttpEvent;
  access: Access;
  /** set for investigator and admin routes, and on cron routes called with an admin token */
  caller: Caller | undefined;
  body: unknown;
  query: Record<string, string | undefined>;
  params: Record<string, string | undefined>;
}

/** A caller that belongs to an organization: what investigator routes hand their implementation. */
export type OrgCaller = Caller & { organizationId: string };

export interface RouteResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const routeByKey = new Map(httpRoutes().map((r) => [`${r.method} ${r.path}`, r]));

const routeOf = (routeKey: string) => {
  const route = routeByKey.get(routeKey);
  if (!route) throw new Error(`route '${routeKey}' is not in the service manifest`);
  return route;
};

export const accessOf = (routeKey: string): Access => routeOf(routeKey).access;

const header = (event: HttpEvent, name: string): string | undefined => event.headers?.[name] ?? event.headers?.[name.toLowerCase()];

/**
 * Administrators are the service's operators and belong to no organization (docs/admin.md): a token with
 * both the admin group and an organization is a customer account that was put into the group, and
 * reaches nothing service-wide.
 */
const OPERATOR_WITH_ORGANIZATION = 'This account is in the admin group but belongs to an organization. Administrators are the service\'s operators '
  + 'and belong to no organization; ask an operator to invite you as one (npm run users -- invite --role admin).';

/** Checks the caller against the route's access level; returns who it is. */
export const authorize = async (event: HttpEvent, access: Access): Promise<Caller | undefined> => {
  if (access === 'public') return undefined;
  if (access === 'cron') return authorizeCron(event);
  const caller = callerFromEvent(event);
  if (!caller) throw unauthorized();
  if (access === 'admin' && caller.role !== 'admin') throw forbidden('This route is for administrators.');
  if (access === 'admin' && caller.organizationId) throw forbidden(OPERATOR_WITH_ORGANIZATION);
  if (access === 'investigator' && !caller.organizationId) throw forbidden('Your account belongs to no organization.');
  return caller;
};

/** Cron routes: the scheduler's secret, or an administrator's token. A mismatch fails the run. */
const authorizeCron = async (event: HttpEvent): Promise<Caller | undefined> => {
  const token = bearerToken(header(event, 'authorization'));
  if (!token) throw unauthorized('The cron bearer secret or an admin token is required.');
  const secret = await cronSecret();
  if (secret && sameSecret(token, secret)) return undefined;
  let caller: Caller | undefined;
  try {
    caller = callerFromClaims(await verifyAccessToken(token));
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthorized('The bearer is neither the cron secret nor a valid token.');
    throw error;
  }
  if (caller?.role !== 'admin') throw forbidden('This route is for the scheduler and administrators.');
  if (caller.organizationId) throw forbidden(OPERATOR_WITH_ORGANIZATION);
  return caller;
};

/** `application/json` or a `+json` type (e.g. `application/merge-patch+json`), any parameters (`; charset=utf-8`). */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

/**
 * The body as JSON. A body sent with another media type is a 415: the API speaks JSON only, and a
 * cross-site form post (`text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data` — the
 * types a browser sends without a CORS preflight) must not be read as JSON. A body with no
 * Content-Type at all is read as JSON (no browser sends one).
 */
const parseBody = (event: HttpEvent): unknown => {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const contentType = header(event, 'content-type');
  if (contentType !== undefined && !JSON_MEDIA_TYPE.test(contentType.split(';')[0]!.trim())) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the request body as JSON, with Content-Type: application/json.');
  }
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
};

/**
 * A body that could not be read (not JSON, or another media type; or query or path parameters that break
 * the string rule), handed to a route that audits every
 * attempt in place of the body: `parseWith` refuses it with the same 400 or 415, from inside the
 * audited path, so a form-encoded sign-in is a failed, audited attempt like any other invalid one.
 */
export class UnreadableBody {
  /** `content`: the body, when it was JSON and the refusal is of the query or path parameters (the audit names what it names) */
  constructor(readonly refusal: ApiError, readonly content?: unknown) {}
}

/** What a body holds for the audit trail: its content, also when the request is refused. */
export const bodyContent = (body: unknown): unknown => (body instanceof UnreadableBody ? body.content : body);

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResult => ({
  statusCode: status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  body: body === undefined ? '' : JSON.stringify(body),
});

export const toErrorResult = (error: unknown, event?: HttpEvent): HttpResult => {
  if (error instanceof ApiError) return json(error.status, errorBody(error), error.headers);
  if (isDatabaseUnavailable(error)) {
    // refused, lost or timed out (connect, statement_timeout, query read timeout): a retry may well succeed
    logger.error('database unavailable', { error: error as Error, routeKey: event?.routeKey });
    const retryAfter = String(DATABASE_RETRY_AFTER_SECONDS);
    return json(503, errorBody(new ApiError(503, 'database_unavailable', `The database is not answering; try again in ${retryAfter} seconds.`)), { 'retry-after': retryAfter });
  }
  logger.error('unhandled error', { error: error as Error, routeKey: event?.routeKey });
  return json(500, errorBody(new ApiError(500, 'internal_error', 'Something went wrong on our side; the request changed nothing it could not finish.')));
};

/**
 * Validates with a zod schema; a failure is a 400 listing each bad field by path. Every string in the
 * value (keys too) must also keep the one string rule — no NUL, no unpaired surrogate (./strings.ts) —
 * whatever the schema says, so every contract gets it once, here.
 */
export const parseWith = <S extends z.ZodType>(schema: S, value: unknown): z.infer<S> => {
  if (value instanceof UnreadableBody) throw value.refusal;
  const checked = checkWith(schema, value);
  if (!checked.ok) throw validationFailed(checked.issues);
  return checked.data;
};

export const requireOrg = (caller: Caller | undefined): OrgCaller => {
  if (!caller?.organizationId) throw forbidden('Your account belongs to no organization.');
  return caller as OrgCaller;
};

type RouteImpl = (request: RouteRequest) => Promise<RouteResponse>;

export interface RouteOptions {
  /**
   * The implementation audits every attempt, refused ones included (sign-in steps, admin writes): an
   * unreadable body reaches it as an UnreadableBody instead of being refused before it.
   */
  auditsEveryAttempt?: boolean;
}

/**
 * The body as JSON, once the query and path parameters keep the string rule: a route that reads neither
 * still refuses them (400), as every declared input does. A refusal reaches a route that audits every
 * attempt in place of its body.
 */
const PLAIN_PARAMETER = /^(query|path)\.[\w-]{1,64}$/;

const readBody = (event: HttpEvent, options: RouteOptions): unknown => {
  let content: unknown;
  try {
    content = parseBody(event);
  } catch (error) {
    if (options.auditsEveryAttempt && error instanceof ApiError) return new UnreadableBody(error);
    throw error;
  }
  // a parameter named by the client is reported by its name only when the name is plain: the details are audited
  const unsafe = unsafeTextIssues({ query: event.queryStringParameters ?? {}, path: event.pathParameters ?? {} })
    .map((issue) => (PLAIN_PARAMETER.test(issue.path) ? issue : { ...issue, path: issue.path.split('.')[0]! }));
  if (unsafe.length === 0) return content;
  if (options.auditsEveryAttempt) return new UnreadableBody(validationFailed(unsafe), content);
  throw validationFailed(unsafe);
};

const answer = async (impl: RouteImpl, options: RouteOptions, event: HttpEvent): Promise<HttpResult> => {
  try {
    const route = routeOf(event.routeKey);
    const { access } = route;
    // before the access check, so failed attempts count too (the key is the verified subject or the address)
    await enforceRateLimit(event, route);
    const caller = await authorize(event, access);
    const response = await impl({
      event,
      access,
      caller,
      body: readBody(event, options),
      query: event.queryStringParameters ?? {},
      params: event.pathParameters ?? {},
    });
    return json(response.status ?? 200, response.body, response.headers);
  } catch (error) {
    return toErrorResult(error, event);
  }
};

/** Every answer carries the gateway's request id (`x-request-id`), for a user to quote and an operator to find in the logs. */
const withRequestId = (result: HttpResult, event: HttpEvent): HttpResult =>
  event.requestContext?.requestId ? { ...result, headers: { ...result.headers, 'x-request-id': event.requestContext.requestId } } : result;

/** Every log line of the request carries the Lambda context and the gateway's request id as `correlation_id`. */
export const httpRoute = (impl: RouteImpl, options: RouteOptions = {}) =>
  middy<HttpEvent, HttpResult>()
    .use(handlerTracing())
    .use(lambdaContextLogging())
    .before(({ event }) => {
      if (event.requestContext?.requestId) logger.setCorrelationId(event.requestContext.requestId);
    })
    .handler(async (event) => withRequestId(await answer(impl, options, event), event));
