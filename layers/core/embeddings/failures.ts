/**
 * How embedding work reads a failed model request (pure). Three kinds, three answers:
 * - a wait: the gateway's QuotaExhaustedError (every region's window is full, or the organization is over its
 *   fair share): nothing failed; the work is given back and comes back at its retryAt;
 * - a refused input: the model refuses the request itself (ValidationException), so one of its texts is poison;
 *   the request is bisected to find it (embedding-work.ts) and only that text's source is blamed;
 * - anything else stops the work without blaming any text: the AI service is unavailable (throttling, outage,
 *   network: isSystemicFailure) or the embedding model is misconfigured. Going on would only fail every batch.
 */
import { QuotaExhaustedError } from '#core/ai/quota';

/** Longest error_message stored. */
export const MAX_ERROR_MESSAGE = 2000;

/** The message stored for a failure: the error's own message (its name when it has none), bounded. */
export const errorMessageOf = (error: unknown): string => {
  const message = error instanceof Error ? error.message || error.name : typeof error === 'string' ? error : String(error);
  const text = message.trim() === '' ? 'Unknown error' : message;
  return text.length > MAX_ERROR_MESSAGE ? `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…` : text;
};

const SYSTEMIC_NAMES = new Set([
  'ThrottlingException',
  'ServiceQuotaExceededException',
  'TooManyRequestsException',
  'RateLimitError',
  'ServiceUnavailableException',
  // the AI gateway's own: no quota slot in time, both regions exhausted
  'QuotaExhaustedError',
  'AiUnavailableError',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** A failure of the AI service rather than of the texts: throttling, quota, outage, network. */
export const isSystemicFailure = (error: unknown): boolean => {
  const e = (error ?? {}) as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  return (
    (e.name !== undefined && SYSTEMIC_NAMES.has(e.name)) ||
    status === 429 ||
    status === 503 ||
    (e.code !== undefined && NETWORK_CODES.has(e.code))
  );
};

/** When a full model quota has room again (the gateway's QuotaExhaustedError), or undefined for any other failure. */
export const quotaRetryAt = (error: unknown): Date | undefined => (error instanceof QuotaExhaustedError ? error.retryAt : undefined);

/**
 * Whether the model refused the request's input (ValidationException): the gateway's AiRequestError carries the
 * model's error as its cause; a bare ValidationException counts the same (an embedder that is not the gateway).
 */
export const isRefusedInput = (error: unknown): boolean => {
  const e = (error ?? {}) as { name?: string; cause?: { name?: string } };
  return e.name === 'ValidationException' || (e.name === 'AiRequestError' && e.cause?.name === 'ValidationException');
};

/** Whether a refusal that brought a source to `attemptsAfter` attempts means it is given up. */
export const gaveUp = (attemptsAfter: number, maxAttempts: number): boolean => attemptsAfter >= maxAttempts;
