/**
 * Every route's contract, gathered for the OpenAPI renderer (./openapi.ts) and the tests. Each feature
 * owns its contracts (`layers/core/<feature>/contract.ts`) and each handler imports only its own, so a
 * route added to a feature's contract file is found here without an edit.
 */
import * as z from 'zod';
import * as admin from '#core/admin/contract';
import * as analysis from '#core/analysis/contract';
import * as auth from '#core/auth/contract';
import { defineRoute, type RouteContract } from '#core/contract';
import * as embeddings from '#core/embeddings/contract';
import * as evidence from '#core/evidence/contract';
import * as feedback from '#core/feedback/contract';
import * as files from '#core/files/contract';
import * as ingestion from '#core/ingestion/contract';
import * as operations from '#core/operations/contract';
import * as payments from '#core/payments/contract';
import { ifUsed } from '#core/if-used';

/** The document itself (functions/http/openapi.ts). */
export const openapiRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/openapi.json',
    response: z.looseObject({
      openapi: z.literal('3.1.0'),
      info: z.looseObject({ title: z.string(), version: z.string() }),
      paths: z.record(z.string(), z.unknown()),
    }),
  }),
);

const isContract = (value: unknown): value is RouteContract =>
  typeof value === 'object' && value !== null && 'route' in value && 'response' in value;

export const ROUTE_CONTRACTS: readonly RouteContract[] = /* @__PURE__ */ ifUsed(() =>
  [admin, analysis, auth, embeddings, evidence, feedback, files, ingestion, operations, payments, { openapiRoute }].flatMap((area) =>
    Object.values(area).filter(isContract),
  ),
);

const byRouteKey = new Map(ROUTE_CONTRACTS.map((contract) => [contract.route, contract]));

/** The contract of a route key (`GET /api/analysis/{analysis_id}`); a route without one is a bug. */
export const contractFor = (routeKey: string): RouteContract => {
  const contract = byRouteKey.get(routeKey as RouteContract['route']);
  if (!contract) throw new Error(`no contract serves '${routeKey}'`);
  return contract;
};

export const errorSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  }),
);
