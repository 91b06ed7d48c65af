/**
 * What went wrong, in the core's words. Feature code throws a DomainError of the kind that says what
 * happened (not found, conflict, refused, unavailable, invalid …) with a stable `code` and a message a
 * person can act on; it knows no HTTP. Only the HTTP edge (layers/core/http/errors.ts) gives each kind its
 * status and writes `{ "error": { "code", "message", "details"? } }`. Anything else is a 500 whose message
 * reveals nothing internal. The AI gateway's errors (ai/errors.ts, ai/quota.ts, ai/timeouts.ts, ai/shedder.ts)
 * are DomainErrors too, so a worker and a route read them alike.
 */
export type ErrorKind =
  /** the request itself is wrong: a field, a value, a combination */
  | 'invalid'
  /** no valid identity: no token, a bad token, a bad signature */
  | 'unauthenticated'
  /** the caller is known and may not do this */
  | 'refused'
  | 'not_found'
  /** the state does not allow it now (a duplicate, a change under way, a status that forbids it) */
  | 'conflict'
  /** a kind of content the service does not read (a media type, a file type) */
  | 'unsupported'
  /** well-formed, but its content cannot be used (a file that cannot be read, an input the model refuses) */
  | 'unprocessable'
  /** too many requests: try again after `retryAfterSeconds` */
  | 'rate_limited'
  /** something the service depends on is not answering: try again */
  | 'unavailable'
  /** the service's own fault: a broken contract, a misconfiguration */
  | 'broken';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** when trying again makes sense (rate_limited, unavailable) */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, details?: unknown) => new DomainError('invalid', 'bad_request', message, details);
export const validationFailed = (details: unknown) => new DomainError('invalid', 'validation_failed', 'The request is not valid.', details);
export const unauthenticated = (message = 'A valid bearer token is required.') =>
  new DomainError('unauthenticated', 'unauthorized', message);
export const refused = (message = 'You may not call this route.') => new DomainError('refused', 'forbidden', message);
export const notFound = (what: string) => new DomainError('not_found', 'not_found', `${what} was not found.`);
export const conflict = (message: string, details?: unknown) => new DomainError('conflict', 'conflict', message, details);
export const unavailable = (message: string, details?: unknown) => new DomainError('unavailable', 'unavailable', message, details);
