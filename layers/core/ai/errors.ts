/**
 * How the gateway reads a failed model call, and the typed failures it hands its callers.
 * Classification is pure: the SDK's error name, HTTP status and Node's network error codes.
 */
import { DomainError } from '#core/errors';

export type FailureKind =
  /** the region is shedding load: retry with backoff, count it for the shedder */
  | 'throttle'
  /** a transient fault (5xx, model not ready, model-side timeout, connection): retry, then the other region */
  | 'retryable'
  /**
   * the attempt ran past a bound (ai/timeouts.ts: the gateway's AiAttemptTimeoutError and its first-token and
   * stream-idle kinds, or the SDK's own
   * TimeoutError): not retried in that region, the other region next; counted by the shedder like a throttle
   */
  | 'timeout'
  /** the request itself is wrong (validation, access, unknown model): no retry, no fallback */
  | 'fatal';

const THROTTLE_NAMES = new Set(['ThrottlingException', 'ServiceQuotaExceededException', 'RateLimitError', 'TooManyRequestsException']);
const TIMEOUT_NAMES = new Set(['AiAttemptTimeoutError', 'AiFirstTokenTimeoutError', 'AiStreamIdleTimeoutError', 'TimeoutError']);
const RETRYABLE_NAMES = new Set([
  'InternalServerException',
  'ServiceUnavailableException',
  'ModelNotReadyException',
  'ModelTimeoutException',
  'RequestTimeout',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
]);

const NETWORK_CODE_IN_TEXT = new RegExp(`\\b(${[...NETWORK_CODES].join('|')})\\b`);

interface SdkLikeError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

export const classifyFailure = (error: unknown): FailureKind => {
  const e = (error ?? {}) as SdkLikeError;
  const status = e.$metadata?.httpStatusCode;
  if ((e.name && THROTTLE_NAMES.has(e.name)) || status === 429 || e.$retryable?.throttling) return 'throttle';
  if (e.name && TIMEOUT_NAMES.has(e.name)) return 'timeout';
  if ((e.name && RETRYABLE_NAMES.has(e.name)) || (status !== undefined && status >= 500)) return 'retryable';
  if (e.code && NETWORK_CODES.has(e.code)) return 'retryable';
  // a connection fault the SDK could only wrap as text (a value that was not an Error of this realm): still the network's
  if (error instanceof Error && NETWORK_CODE_IN_TEXT.test(error.message)) return 'retryable';
  return 'fatal';
};

/** Both regions exhausted their retries: the caller fails the work with a message the user can act on. */
export class AiUnavailableError extends DomainError {
  override name = 'AiUnavailableError';
  constructor(readonly attempts: { region: string; error: string }[]) {
    super(
      'unavailable',
      'ai_unavailable',
      'The AI service is unavailable in both regions right now. Nothing was lost; please try again in a few minutes.',
    );
  }
}

/** The model service refused the request itself; retrying or another region would not help. */
export class AiRequestError extends DomainError {
  override name = 'AiRequestError';
  constructor(
    readonly region: string,
    override readonly cause: unknown,
  ) {
    super(
      'unprocessable',
      'ai_request_refused',
      `The AI service refused the request: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`,
    );
  }
}

/**
 * The configured embedding model cannot fill the vector column (not a Cohere Embed model the service knows, or
 * vectors of another size): a configuration error, never the texts' fault, so no text is blamed for it.
 */
export class EmbeddingModelError extends DomainError {
  override name = 'EmbeddingModelError';
  constructor(problem: string) {
    super(
      'broken',
      'embedding_model_misconfigured',
      `The embedding model is misconfigured (AI_MODEL_EMBEDDING, CDK context aiModelEmbedding): ${problem}`,
    );
  }
}

/** Exponential backoff with full jitter, capped; `random` is injectable so tests are deterministic. */
export const backoffMs = (attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number =>
  Math.round(random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)));
