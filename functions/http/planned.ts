/**
 * Stands in for every function the manifest marks `planned`: the route exists, is secured like the
 * real one will be, and answers 501 naming the issue that builds it. Queue messages are failed back
 * (they wait in the queue and then its DLQ, never lost); scheduled runs report that nothing ran.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { functions, type FunctionSpec } from '../../lib/manifest';
import { notImplemented } from '../../layers/core/http/errors';
import { httpRoute, type HttpEvent } from '../../layers/core/http/route';
import { logger } from '../../layers/core/logger';

const plannedIn = (fn: FunctionSpec | undefined): string =>
  fn && typeof fn.entry !== 'string' ? fn.entry.planned : 'a later issue';

const byRouteKey = (routeKey: string) =>
  functions.find((f) => f.triggers.some((t) => t.kind === 'http' && `${t.method} ${t.path}` === routeKey));

const byFunctionId = (id: string | undefined) => functions.find((f) => f.id === id);

const http = httpRoute(async ({ event }) => {
  throw notImplemented(`${event.routeKey} is not built yet; it arrives with ${plannedIn(byRouteKey(event.routeKey))}.`);
});

export const handler = async (event: HttpEvent | SQSEvent | object, context: Context) => {
  if ('routeKey' in event) return http(event, context);
  // FUNCTION_ID in AWS; the twin runs every function in one process and names it in the context
  const fn = byFunctionId(process.env.FUNCTION_ID ?? context.functionName);
  if ('Records' in event) {
    logger.warn('worker not built yet; messages stay queued', { function: fn?.id, plannedIn: plannedIn(fn) });
    return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) } satisfies SQSBatchResponse;
  }
  logger.warn('scheduled function not built yet; nothing ran', { function: fn?.id, plannedIn: plannedIn(fn) });
  return { status: 'not_implemented', plannedIn: plannedIn(fn) };
};
