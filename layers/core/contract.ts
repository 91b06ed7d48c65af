/**
 * What an HTTP route takes and answers, written once next to the feature that serves it
 * (`layers/core/<feature>/contract.ts`). The route wrapper (http/route.ts) parses every input with it
 * before the handler runs and types the handler's answer against it; the OpenAPI document is rendered
 * from the same objects (http/openapi.ts). Plain zod, no HTTP machinery: features import this, never http/.
 */
import * as z from 'zod';
import type { HttpMethod } from '#manifest';
import { validationFailed } from './errors';
import { checkWith } from './strings';

export interface RouteContract {
  /** the API Gateway route key this contract serves, e.g. `GET /api/analysis/{analysis_id}`; checked against the manifest at cold start */
  route: `${HttpMethod} /${string}`;
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

/** Keeps the contract's literal types (the route key, each schema's own type) for the handler that serves it. */
export const defineRoute = <const C extends RouteContract>(contract: C): C => contract;

export const uuid = z.uuid({ error: 'must be a UUID' });

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
