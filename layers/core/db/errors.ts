/**
 * Which errors mean "the database is not answering" — refused or dropped connections, a connect or pool
 * timeout, a server shutting down or out of connections, a statement cancelled by statement_timeout or a
 * query read timeout — as opposed to a bug or a bad request. The route wrapper answers those with 503
 * `database_unavailable` and Retry-After (docs/runbook.md), never 500. Pure: it reads the error only.
 */

/** seconds a client is told to wait before retrying a request the database could not answer */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** socket errors of a connection that could not be opened or was lost */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATEs: class 08 (connection exception) by prefix; 57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now, 53300 too_many_connections, 57014 query_canceled (statement_timeout).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** node-postgres's and pg-pool's own messages for a lost connection and its timeouts */
const MESSAGES = [
  /connection terminated/i, // unexpectedly, or "due to connection timeout"
  /timeout exceeded when trying to connect/i, // pg-pool's connectionTimeoutMillis
  /query read timeout/i, // query_timeout
  /is not queryable/i, // a connection that was lost or ended (after a read timeout) mid-transaction
  /database connection timed out/i, // this service's own timeouts (ratelimit)
];

const isSqlState = (code: string) => /^[0-9A-Z]{5}$/.test(code);

const unavailable = (error: object): boolean => {
  const { code, message } = error as { code?: unknown; message?: unknown };
  // an AWS SDK error (S3, SQS, Bedrock) carries $metadata: its network failures are not the database's
  const fromAwsSdk = '$metadata' in error;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return !fromAwsSdk;
    if (isSqlState(code) && (code.startsWith('08') || SQLSTATES.has(code))) return true;
  }
  return !fromAwsSdk && typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message));
};

/** Whether `error` (or an error it was caused by, or one of an AggregateError's) says the database is unavailable. */
export const isDatabaseUnavailable = (error: unknown, depth = 0): boolean => {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  if (unavailable(error)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (isDatabaseUnavailable(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
};

export interface DatabaseTimeouts {
  /** pg-pool's connectionTimeoutMillis: opening a connection (TLS, IAM sign-in at the proxy) */
  connectMs: number;
  /** the server's statement_timeout (PostgreSQL cancels the statement: 57014) */
  statementMs: number;
  /** node-postgres's query_timeout: the client stops waiting for an answer (a hung server or network; PGlite, which ignores statement_timeout) */
  queryMs: number;
}

const clamp = (value: number, min: number, max: number) => Math.round(Math.min(max, Math.max(min, value)));

/**
 * The database timeouts of a function, derived from its own timeout (the manifest's timeoutSeconds): a
 * connect takes at most 30 % of it (1–5 s), a statement 40 % (1–60 s), and the client waits one second
 * more than the server for an answer — an API function (10 s) gets 3 s, 4 s and 5 s, so a route that hits a
 * hung database answers 503 before the function itself times out; a 300-s worker gets 5 s, 60 s and 61 s.
 */
export const timeoutsFor = (functionTimeoutSeconds: number): DatabaseTimeouts => {
  const budgetMs = functionTimeoutSeconds * 1000;
  const statementMs = clamp(budgetMs * 0.4, 1_000, 60_000);
  return { connectMs: clamp(budgetMs * 0.3, 1_000, 5_000), statementMs, queryMs: statementMs + 1_000 };
};
