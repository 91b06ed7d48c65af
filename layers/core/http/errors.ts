/**
 * The HTTP edge's half of the errors: the status each kind of DomainError (#core/errors) is answered with,
 * and the API's error shape, `{ "error": { "code", "message", "details"? } }`. Nothing else in the core
 * names an HTTP status.
 */
import type { DomainError, ErrorKind } from '#core/errors';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  refused: 403,
  not_found: 404,
  conflict: 409,
  unsupported: 415,
  unprocessable: 422,
  rate_limited: 429,
  broken: 500,
  unavailable: 503,
};

export const httpStatusOf = (error: DomainError): number => STATUS[error.kind];

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export const errorBody = (error: Pick<DomainError, 'code' | 'message' | 'details'>): ErrorBody => ({
  error: { code: error.code, message: error.message, ...(error.details !== undefined && { details: error.details }) },
});

/** A retry-after header when the error says when to try again. */
export const errorHeaders = (error: DomainError): Record<string, string> =>
  error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
