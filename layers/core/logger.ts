/**
 * Structured JSON logs (Powertools). The spec's log markers ([AI:Throttle], [AUDIT FAILURE], …) go in `message`.
 * Every line an invocation writes carries its Lambda context (function_name, function_request_id,
 * cold_start) and, where the work has one, a `correlation_id`: an HTTP request's gateway request id (the
 * `x-request-id` a user quotes), and for queued work the id of the request that queued it (./queues.ts).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { serviceName } from './config';
import { handlerTracing } from './tracer';

export const logger = new Logger({ serviceName: serviceName() });

/**
 * The middy middleware that puts the Lambda context on every line of an invocation; keys appended during
 * it (the correlation id among them) are dropped at its end, so none carries over to the next invocation.
 * Once per handler: a second one in the same invocation would report a cold start as warm.
 */
export const lambdaContextLogging = () => injectLambdaContext(logger, { resetKeys: true });

/**
 * middy's settings for every handler: no early timeout. middy would otherwise end an invocation with its own
 * TimeoutError 5 ms before Lambda's deadline, racing the runtime; Lambda's timeout ("Task timed out", a
 * function error either way) is the one the runbook, the alarms and the twin (test/twin/function-timeout)
 * describe, and it leaves a queued message and its lease exactly as they were.
 */
export const MIDDY_SETTINGS = { timeoutEarlyInMillis: 0 } as const;

/**
 * A handler whose log lines carry its Lambda context and whose work is traced under the invocation's
 * segment (for handlers that are not HTTP routes, ./http/route.ts): workers, schedules, operator functions.
 */
export const withLambdaContext = <E, R>(handler: (event: E, context: Context) => Promise<R>) =>
  middy<E, R>(handler, MIDDY_SETTINGS).use(handlerTracing()).use(lambdaContextLogging());

/** The correlation id of the running invocation, when it has one. */
export const correlationId = (): string | undefined => {
  const id = logger.getCorrelationId();
  return typeof id === 'string' ? id : undefined;
};
