/**
 * What an HTTP route takes and answers, written once next to the feature that serves it
 * (`layers/core/<feature>/contract.ts`). The route wrapper (http/route.ts) parses every input with it
 * before the handler runs and types the handler's answer against it; the OpenAPI document is rendered
 * from the same objects (http/openapi.ts). Plain zod, no HTTP machinery: features import this, never http/.
 */
import * as z from 'zod';
import type { RouteKey } from '#manifest';
import { validationFailed } from './errors';
import { checkWith } from './strings';
import { ifUsed } from '#core/if-used';

export interface RouteContract {
  /** the manifest's route this contract serves, e.g. `GET /api/analysis/{analysis_id}` (a key the manifest does not declare does not compile) */
  route: RouteKey;
  /** the success status when it is not 200 */
  status?: number;
  /**
   * the statuses this route answers beyond the common ones (400, 401, 403, 429), with what each means;
   * another 2xx carries the same response body as the success status
   */
  errors?: Record<number, string>;
  /** what the Location header of the success answer names, on a route that sends one */
  location?: string;
  /** the request headers the route reads (names in lower case) */
  headers?: z.ZodObject;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /**
   * looks at the body before its schema does, for a refusal of its own (a design-only analysis type) or a
   * clearer message (an unknown feedback action); it throws to refuse
   */
  refuseBody?: (body: unknown) => void;
  response: z.ZodType;
  /**
   * a document the route may answer instead of its JSON response (a PDF export), by media type, with what it holds;
   * the handler answers it as a file (http/route.ts), base64-encoded as API Gateway expects binary bodies
   */
  documents?: Record<string, string>;
}

/** The `{name}` path parameters of a route key. */
export type PathParams<R extends string> = R extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;

type ParamKeys<S> = S extends z.ZodObject<infer Shape> ? keyof Shape & string : never;
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A contract whose `params` name exactly the route's `{params}` (none when the path has none); another does not
 * compile, and the message says which.
 */
type ParamsAgree<C extends RouteContract> =
  SameKeys<PathParams<C['route']>, ParamKeys<C['params']>> extends true
    ? unknown
    : { params: `the path parameters of ${C['route']} are: ${[PathParams<C['route']>] extends [never] ? 'none' : PathParams<C['route']>}` };

/** Keeps the contract's literal types (the route key, each schema's own type) for the handler that serves it. */
export const defineRoute = <const C extends RouteContract>(contract: C & ParamsAgree<C>): C => contract;

export const uuid = /* @__PURE__ */ ifUsed(() => z.uuid({ error: 'must be a UUID' }));

/**
 * Validates with a zod schema; a failure is a 400 listing each bad field by path. Every string in the
 * value (keys too) must also keep the one string rule — no NUL, no unpaired surrogate (./strings.ts) —
 * whatever the schema says, so every contract gets it once, here.
 */
export const parseWith = <S extends z.ZodType>(schema: S, value: unknown): z.infer<S> => {
  const checked = checkWith(schema, value);
  if (!checked.ok) throw validationFailed(checked.issues);
  return checked.data;
};

/** A body as its route reads it: the contract's own refusal first, then its schema. */
export const parseBodyWith = <C extends RouteContract & { body: z.ZodType }>(contract: C, body: unknown): z.output<C['body']> => {
  contract.refuseBody?.(body);
  return parseWith(contract.body as C['body'], body);
};
