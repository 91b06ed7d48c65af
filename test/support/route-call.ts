/**
 * A request through the real route wrapper (layers/core/http/route.ts) — the contract's parsing, the
 * refusal hook, the answer check — with the test's own implementation, for tests on their own database.
 * A refusal is thrown as a RouteRefusal: the status and error body the route answered.
 */
import type { Context } from 'aws-lambda';
import type * as z from 'zod';
import type { RouteContract } from '#core/contract';
import { route, type HttpEvent, type RouteAnswer, type RouteInput, type RouteOptions } from '#core/http/route';

/** A refusal as the route answered it: its HTTP status and the error body's code, message and details. */
export class RouteRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'RouteRefusal';
  }
}

export interface RouteRequestParts {
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string | undefined>;
  /** the verified token's claims, as the gateway's authorizer passes them */
  claims?: Record<string, string>;
  sourceIp?: string;
}

export const routeCall = <C extends RouteContract>(
  contract: C,
  run: (input: RouteInput<C>) => Promise<RouteAnswer<C>['body']>,
  options: RouteOptions = {},
) => {
  const handler = route(contract, async (input) => ({ body: await run(input) }), options);
  return async (request: RouteRequestParts): Promise<z.output<C['response']>> => {
    const event = {
      version: '2.0',
      routeKey: contract.route,
      rawPath: '/',
      rawQueryString: '',
      isBase64Encoded: false,
      headers: { 'content-type': 'application/json' },
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      queryStringParameters: request.query ?? {},
      pathParameters: request.params ?? {},
      requestContext: {
        http: { method: contract.route.split(' ')[0], sourceIp: request.sourceIp ?? '192.0.2.1' },
        ...(request.claims && { authorizer: { jwt: { claims: request.claims, scopes: [] } } }),
      },
    } as unknown as HttpEvent;
    const res = await handler(event, {} as Context);
    const answer = JSON.parse(res.body || 'null');
    if (res.statusCode! >= 400) throw new RouteRefusal(res.statusCode!, answer.error.code, answer.error.message, answer.error.details);
    return answer;
  };
};
