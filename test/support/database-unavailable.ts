/**
 * What a route answers when the database is refused or hangs (issue 14, item 6): 503 `database_unavailable`
 * with Retry-After, never a 500 and never past the function's timeout. Shared by the twin's fault tests.
 */
import type { Reply } from './twin';

/** A request's reply and how long it took. */
export const timed = async (request: () => Promise<Reply>): Promise<Reply & { ms: number }> => {
  const started = Date.now();
  const reply = await request();
  return { ...reply, ms: Date.now() - started };
};

export const expectDatabaseUnavailable = (reply: Reply) => {
  expect(reply.status).toBe(503);
  expect(reply.headers.get('retry-after')).toBe('5');
  expect(reply.body).toEqual({ error: { code: 'database_unavailable', message: 'The database is not answering; try again in 5 seconds.' } });
};
