/**
 * Every line a route writes carries the Lambda context and the gateway request id (the `x-request-id`
 * a user quotes) as correlation_id; nothing appended during one invocation reaches the next (issue 16, item 3).
 */
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { defineRoute } from '#core/contract';
import type { HttpEvent, route as Route } from '#core/http/route';
import { captureLogLines } from '../support/log-lines';

// the logger reads its level when it is made, and each invocation goes back to it: loaded after the level is set
let route: typeof Route;
let handler: ReturnType<typeof Route>;
const health = defineRoute({ route: 'GET /api/health', response: z.unknown() });
beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  ({ route } = await import('#core/http/route'));
  const { logger } = await import('#core/logger');
  // the implementation logs, and appends a key of its own that must not outlive the invocation
  handler = route(health, async ({ event: { queryStringParameters } }) => {
    if (queryStringParameters?.user) logger.appendKeys({ user: queryStringParameters.user });
    logger.info('inside the route');
    return { body: null };
  });
});

const event = (requestId?: string): HttpEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /api/health',
    rawPath: '/api/health',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: { http: { method: 'GET' }, ...(requestId && { requestId }) },
  }) as unknown as HttpEvent;

const context = (awsRequestId: string): Context =>
  ({
    awsRequestId,
    functionName: 'ias-health',
    functionVersion: '$LATEST',
    memoryLimitInMB: '256',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:ias-health',
  }) as Context;

const log = captureLogLines();

test('a line written inside a route carries the function request id, and the gateway request id as correlation_id', async () => {
  const result = await handler({ ...event('gw-req-1'), queryStringParameters: { user: 'u1' } }, context('fn-req-1'));
  expect(result.headers?.['x-request-id']).toBe('gw-req-1');
  expect(log.lines()).toEqual([
    expect.objectContaining({
      message: 'inside the route',
      function_request_id: 'fn-req-1',
      correlation_id: 'gw-req-1',
      function_name: 'ias-health',
      user: 'u1',
    }),
  ]);
  expect(log.lines()[0]).toHaveProperty('cold_start');
});

test('nothing carries over to the next invocation: its own ids, no correlation id it did not have, no appended key', async () => {
  await handler({ ...event('gw-req-2'), queryStringParameters: { user: 'u2' } }, context('fn-req-2'));
  await handler(event('gw-req-3'), context('fn-req-3'));
  await handler(event(), context('fn-req-4'));
  expect(log.lines().map((l) => [l.function_request_id, l.correlation_id, l.user])).toEqual([
    ['fn-req-2', 'gw-req-2', 'u2'],
    ['fn-req-3', 'gw-req-3', undefined],
    ['fn-req-4', undefined, undefined],
  ]);
});

test('an error logged by the wrapper itself carries them too', async () => {
  const crash = route(health, async () => {
    throw new Error('boom');
  });
  expect((await crash(event('gw-req-5'), context('fn-req-5'))).statusCode).toBe(500);
  expect(log.lines()).toEqual([
    expect.objectContaining({ level: 'ERROR', message: 'unhandled error', function_request_id: 'fn-req-5', correlation_id: 'gw-req-5' }),
  ]);
});
