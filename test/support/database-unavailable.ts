/**
 * What a route answers when the database is refused or hangs (issue 14, item 6): 503 `database_unavailable`
 * with Retry-After, never a 500 and never past the function's timeout. Shared by the twin's fault tests.
 */
import { DATABASE_RETRY_AFTER_SECONDS } from '#core/db/errors';
import type { Reply } from './twin';

/** A request's reply and how long it took. */
export const timed = async (request: () => Promise<Reply>): Promise<Reply & { ms: number }> => {
  const started = Date.now();
  const reply = await request();
  return { ...reply, ms: Date.now() - started };
};

/** Whether an answer is the documented 503 (status, Retry-After and error code; the message aside). */
export const isDatabaseUnavailable = (answer: { status: number; retryAfter: string | null; code: unknown }): boolean =>
  answer.status === 503 && answer.retryAfter === String(DATABASE_RETRY_AFTER_SECONDS) && answer.code === 'database_unavailable';

export const expectDatabaseUnavailable = (reply: Reply) => {
  expect(reply.status).toBe(503);
  expect(reply.headers.get('retry-after')).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
  expect(reply.body).toEqual({
    error: { code: 'database_unavailable', message: 'The database is not answering; try again in 5 seconds.' },
  });
};
