/**
 * The one wrapper every HTTP function uses (middy): `route(contract, impl)`. It enforces the access level
 * the service manifest declares for the route — declared once, enforced here in every deployment, behind
 * the API Gateway authorizer —, parses every input the contract declares before `impl` runs, and maps
 * errors to the API's error shape.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type * as z from 'zod';
import type { Access, FunctionFacts, HttpTrigger } from '#manifest';
import { manifestFacts } from '#core/function-facts';
import { callerFromEvent, type Caller, type OrgCaller } from '#core/auth/caller';
import { config, env, ENV } from '#core/config';
import { parseBodyWith, parseWith, type RouteContract } from '#core/contract';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '#core/db/errors';
import { withinFunctionTime } from '#core/db/deadline';
import { lambdaContextLogging, logger, MIDDY_SETTINGS } from '#core/logger';
import { handlerTracing } from '#core/tracer';
import { enforceRateLimit } from '#core/ratelimit/limiter';
import { DomainError, invalid, refused, unauthenticated, validationFailed } from '#core/errors';
import { errorBody, errorHeaders, httpStatusOf } from './errors';
import { unsafeTextIssues } from '#core/strings';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

type ManifestRoute = HttpTrigger & { fn: FunctionFacts };

/** The routes the manifest gives the functions this process may run (in a function's bundle, its own). */
const routeByKey = new Map(
  manifestFacts().flatMap((fn) => fn.routes.map((route): [string, ManifestRoute] => [`${route.method} ${route.path}`, { ...route, fn }])),
);

export const header = (event: HttpEvent, name: string): string | undefined => event.headers?.[name] ?? event.headers?.[name.toLowerCase()];

/**
 * Administrators are the service's operators and belong to no organization (docs/admin.md): a token with
 * both the admin group and an organization is a customer account that was put into the group, and
 * reaches nothing service-wide.
 */
export const OPERATOR_WITH_ORGANIZATION =
  "This account is in the admin group but belongs to an organization. Administrators are the service's operators " +
  'and belong to no organization; ask an operator to invite you as one (npm run users -- invite --role admin).';

/** The check of a cron route's bearer (./cron-access.ts): handed in by the cron routes only, so no other route bundles it. */
export type CronAccess = (event: HttpEvent) => Promise<Caller | undefined>;

/** Checks the caller against the route's access level; returns who it is. */
const authorize = async (event: HttpEvent, access: Access, cronAccess: CronAccess | undefined): Promise<Caller | undefined> => {
  if (access === 'public') return undefined;
  if (access === 'cron') return cronAccess!(event);
  const caller = callerFromEvent(event);
  if (!caller) throw unauthenticated();
  if (access === 'admin' && caller.role !== 'admin') throw refused('This route is for administrators.');
  if (access === 'admin' && caller.organizationId) throw refused(OPERATOR_WITH_ORGANIZATION);
  if (access === 'investigator' && !caller.organizationId) throw refused('Your account belongs to no organization.');
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
    throw new DomainError('unsupported', 'unsupported_media_type', 'Send the request body as JSON, with Content-Type: application/json.');
  }
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
};

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResult => ({
  statusCode: status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  body: body === undefined ? '' : JSON.stringify(body),
});

export const toErrorResult = (error: unknown, event?: HttpEvent): HttpResult => {
  if (error instanceof DomainError) return json(httpStatusOf(error), errorBody(error), errorHeaders(error));
  if (isDatabaseUnavailable(error)) {
    // refused, lost or timed out (connect, statement_timeout, query read timeout): a retry may well succeed
    logger.error('database unavailable', { error: error as Error, routeKey: event?.routeKey });
    const retryAfter = String(DATABASE_RETRY_AFTER_SECONDS);
    return json(
      503,
      errorBody({ code: 'database_unavailable', message: `The database is not answering; try again in ${retryAfter} seconds.` }),
      { 'retry-after': retryAfter },
    );
  }
  logger.error('unhandled error', { error: error as Error, routeKey: event?.routeKey });
  return json(
    500,
    errorBody({ code: 'internal_error', message: 'Something went wrong on our side; the request changed nothing it could not finish.' }),
  );
};

export const requireOrg = (caller: Caller | undefined): OrgCaller => {
  if (!caller?.organizationId) throw refused('Your account belongs to no organization.');
  return caller as OrgCaller;
};

/** What a schema the contract may leave out parses to: nothing when it is left out. */
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What an implementation receives: the caller, and each input the contract declares, parsed. */
export interface RouteInput<C extends RouteContract> {
  event: HttpEvent;
  /** set for investigator and admin routes, and on cron routes called with an admin token */
  caller: Caller | undefined;
  params: Parsed<C['params']>;
  query: Parsed<C['query']>;
  headers: Parsed<C['headers']>;
  body: Parsed<C['body']>;
}

/** What an implementation answers: a body of the contract's response type (the status defaults to the contract's). */
export interface RouteAnswer<C extends RouteContract> {
  status?: number;
  body: z.input<C['response']>;
  headers?: Record<string, string>;
}

/** A document answered instead of the JSON response, of a media type the contract's `documents` names. */
export interface DocumentAnswer {
  document: { mediaType: string; fileName: string; bytes: Uint8Array };
}

/**
 * A document as the Lambda proxy answer: base64 with isBase64Encoded, which API Gateway's HTTP API decodes into
 * the bytes it sends (the twin's gateway too); offered as a download under its file name.
 */
const documentResult = (contract: RouteContract, { mediaType, fileName, bytes }: DocumentAnswer['document']): HttpResult => {
  if (!contract.documents?.[mediaType]) throw new Error(`${contract.route} declares no ${mediaType} document`);
  return {
    statusCode: contract.status ?? 200,
    headers: {
      'content-type': mediaType,
      'content-disposition': `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
      'cache-control': 'no-store',
    },
    body: Buffer.from(bytes).toString('base64'),
    isBase64Encoded: true,
  };
};

/** A request whose input the contract refused, as a route that audits every attempt sees it. */
export interface RefusedAttempt {
  event: HttpEvent;
  caller: Caller | undefined;
  /** the body when it was JSON (a refusal of the query or path parameters, or of the body's fields, still names what it names) */
  content: unknown;
}

export interface RouteOptions {
  /**
   * The route audits every attempt, refused ones included (sign-in steps, admin writes): called with the
   * refusal of an input (not JSON, another media type, a field the contract refuses) before its 4xx goes back.
   */
  refused?: (attempt: RefusedAttempt, refusal: DomainError) => Promise<void>;
  /** a cron route's bearer check (./cron-access.ts); a cron route without one fails its cold start */
  cronAccess?: CronAccess;
}

/** A parameter named by the client is reported by its name only when the name is plain: the details are audited. */
const PLAIN_PARAMETER = /^(query|path)\.[\w-]{1,64}$/;

const lowerCaseHeaders = (event: HttpEvent): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));

/**
 * Every input the contract declares, parsed. The query and path parameters keep the string rule even on a
 * route that reads neither, as every declared input does; the body is read as JSON whatever the contract.
 */
const readInput = async <C extends RouteContract>(
  contract: C,
  event: HttpEvent,
  caller: Caller | undefined,
  options: RouteOptions,
): Promise<RouteInput<C>> => {
  let content: unknown;
  try {
    content = parseBody(event);
    const unsafe = unsafeTextIssues({ query: event.queryStringParameters ?? {}, path: event.pathParameters ?? {} }).map((issue) =>
      PLAIN_PARAMETER.test(issue.path) ? issue : { ...issue, path: issue.path.split('.')[0]! },
    );
    if (unsafe.length > 0) throw validationFailed(unsafe);
    const parse = (schema: z.ZodType | undefined, value: unknown) => (schema ? parseWith(schema, value) : undefined);
    return {
      event,
      caller,
      params: parse(contract.params, event.pathParameters ?? {}),
      query: parse(contract.query, event.queryStringParameters ?? {}),
      headers: parse(contract.headers, lowerCaseHeaders(event)),
      body: contract.body ? parseBodyWith({ ...contract, body: contract.body }, content) : undefined,
    } as RouteInput<C>;
  } catch (error) {
    if (options.refused && error instanceof DomainError) await options.refused({ event, caller, content }, error);
    throw error;
  }
};

/**
 * In the twin and the tests (RESPONSE_VALIDATION=strict), an answer that breaks the contract's response
 * schema is a 500 naming the fields, so every end-to-end test checks the contract it passes through.
 */
const checkAnswer = (contract: RouteContract, body: unknown) => {
  if (config()[ENV.responseValidation] !== 'strict' || body === undefined) return;
  const checked = contract.response.safeParse(JSON.parse(JSON.stringify(body)));
  if (checked.success) return;
  const issues = checked.error.issues.slice(0, 10).map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  logger.error('answer breaks its contract', { route: contract.route, issues });
  throw new DomainError('broken', 'response_contract_violation', `The answer breaks the contract of ${contract.route}.`, issues);
};

/** The manifest's route for a contract: a contract the manifest does not serve, or serves from another function, fails the cold start. */
const manifestRouteOf = (contract: RouteContract) => {
  const route = routeByKey.get(contract.route);
  if (!route) throw new Error(`route '${contract.route}' is not in the service manifest`);
  const functionId = env(ENV.functionId);
  if (functionId !== undefined && route.fn.id !== functionId) {
    throw new Error(
      `function '${functionId}' is bound to the contract of '${contract.route}', which the manifest gives to '${route.fn.id}'`,
    );
  }
  return route;
};

const answer = async <C extends RouteContract>(
  contract: C,
  route: ManifestRoute,
  impl: RouteImpl<C>,
  options: RouteOptions,
  event: HttpEvent,
): Promise<HttpResult> => {
  try {
    if (event.routeKey !== contract.route) throw new Error(`this function serves '${contract.route}', not '${event.routeKey}'`);
    // before the access check, so failed attempts count too (the key is the verified subject or the address)
    await enforceRateLimit(event, route);
    const caller = await authorize(event, route.access, options.cronAccess);
    const response = await impl(await readInput(contract, event, caller, options));
    if ('document' in response) return documentResult(contract, response.document);
    checkAnswer(contract, response.body);
    return json(response.status ?? contract.status ?? 200, response.body, response.headers);
  } catch (error) {
    return toErrorResult(error, event);
  }
};

/** Every answer carries the gateway's request id (`x-request-id`), for a user to quote and an operator to find in the logs. */
const withRequestId = (result: HttpResult, event: HttpEvent): HttpResult =>
  event.requestContext?.requestId ? { ...result, headers: { ...result.headers, 'x-request-id': event.requestContext.requestId } } : result;

type RouteImpl<C extends RouteContract> = (
  input: RouteInput<C>,
) => Promise<RouteAnswer<C> | (C['documents'] extends Record<string, string> ? DocumentAnswer : never)>;

/**
 * The handler of one route: `impl` receives the inputs its contract declares, parsed and typed, and its
 * answer is typed against the contract's response. Every log line of the request carries the Lambda
 * context and the gateway's request id as `correlation_id`.
 */
export const route = <C extends RouteContract>(contract: C, impl: RouteImpl<C>, options: RouteOptions = {}) => {
  const manifestRoute = manifestRouteOf(contract);
  if (manifestRoute.access === 'cron' && !options.cronAccess)
    throw new Error(`'${contract.route}' is a cron route: give route() its cronAccess (http/cron-access.ts)`);
  return (
    middy<HttpEvent, HttpResult>(MIDDY_SETTINGS)
      .use(handlerTracing())
      .use(lambdaContextLogging())
      .before(({ event }) => {
        if (event.requestContext?.requestId) logger.setCorrelationId(event.requestContext.requestId);
      })
      // its statements end before the function's time does: a route slowed by contention answers 503, not a timeout's 500
      .handler(async (event, context) =>
        withinFunctionTime(context?.getRemainingTimeInMillis?.(), async () =>
          withRequestId(await answer(contract, manifestRoute, impl, options, event), event),
        ),
      )
  );
};
