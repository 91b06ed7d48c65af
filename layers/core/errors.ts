/**
 * Errors with an HTTP meaning. Any layer may throw one; the route wrapper turns it into
 * `{ "error": { "code", "message", "details"? } }` with its status. Anything else is a 500 whose
 * message reveals nothing internal.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string, details?: unknown) => new ApiError(400, 'bad_request', message, details);
export const validationFailed = (details: unknown) => new ApiError(400, 'validation_failed', 'The request is not valid.', details);
export const unauthorized = (message = 'A valid bearer token is required.') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message = 'You may not call this route.') => new ApiError(403, 'forbidden', message);
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} was not found.`);
export const conflict = (message: string, details?: unknown) => new ApiError(409, 'conflict', message, details);
export const unavailable = (message: string, details?: unknown) => new ApiError(503, 'unavailable', message, details);

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export const errorBody = (error: ApiError): ErrorBody => ({
  error: { code: error.code, message: error.message, ...(error.details !== undefined && { details: error.details }) },
});
