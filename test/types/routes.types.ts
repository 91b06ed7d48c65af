/**
 * Type-level tests of the route recipe (docs/architecture.md), run by `tsc` (`npm run typecheck`, a CI step),
 * never by jest: each `@ts-expect-error` line must fail to compile, or tsc reports the directive as unused.
 * A route key the manifest does not declare, path parameters that differ from the contract's `params`, and an
 * answer that breaks the response schema do not compile.
 */
import * as z from 'zod';
import type { RouteKey } from '#manifest';
import { defineRoute, uuid, type PathParams } from '#core/contract';
import { route } from '#core/http/route';

// ---- route keys: the manifest's literals ------------------------------------------------------

export const declaredKey: RouteKey = 'GET /api/analysis/{analysis_id}';
// @ts-expect-error a typo in the path is not a route of the manifest
export const typo: RouteKey = 'GET /api/analysys/{analysis_id}';
// @ts-expect-error a declared path with another method is not a route of the manifest
export const otherMethod: RouteKey = 'DELETE /api/health';
// @ts-expect-error any string is not a route key: the union is narrow
export const anyString: RouteKey = 'GET /api/anything' as string;

// ---- path parameters ---------------------------------------------------------------------------

export const twoParams: PathParams<'GET /api/analysis/{analysis_id}/retrieval/{chunk_id}'> = 'chunk_id';
// @ts-expect-error a route key names only its own parameters
export const notAParam: PathParams<'GET /api/analysis/{analysis_id}'> = 'investigation_id';

const response = z.object({ ok: z.boolean() });

export const agreeing = defineRoute({ route: 'GET /api/analysis/{analysis_id}', params: z.object({ analysis_id: uuid }), response });
export const noParams = defineRoute({ route: 'GET /api/health', response });

export const missingParams = defineRoute(
  // @ts-expect-error the path has {analysis_id}, and the contract declares no params
  { route: 'GET /api/analysis/{analysis_id}', response },
);
export const wrongParam = defineRoute({
  route: 'GET /api/analysis/{analysis_id}',
  // @ts-expect-error the contract's param is not the path's
  params: z.object({ id: uuid }),
  response,
});
export const extraParam = defineRoute({
  route: 'GET /api/analysis/{analysis_id}',
  // @ts-expect-error one param too many
  params: z.object({ analysis_id: uuid, chunk_id: uuid }),
  response,
});
export const paramsWithoutPathParams = defineRoute({
  route: 'GET /api/health',
  // @ts-expect-error the path has no parameters
  params: z.object({ analysis_id: uuid }),
  response,
});
// @ts-expect-error a contract on a route the manifest does not declare
export const undeclared = defineRoute({ route: 'GET /api/nowhere', response });

// ---- answers: the response schema types the handler's body ------------------------------------

export const rightAnswer = () => route(agreeing, async ({ params }) => ({ body: { ok: params.analysis_id.length > 0 } }));
// @ts-expect-error the body breaks the response schema (ok is a boolean)
export const wrongAnswer = () => route(agreeing, async () => ({ body: { ok: 'yes' } }));
// @ts-expect-error a param the contract does not declare is not in the handler's input
export const unknownParam = () => route(agreeing, async ({ params }) => ({ body: { ok: params.chunk_id === '' } }));
