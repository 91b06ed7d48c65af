/**
 * The time a request's database work must end by. Each statement is bounded by the function's query timeout
 * (errors.ts: an API function's 5 s), but a route makes several, and under contention (PGlite's one session,
 * a lock held by a bulk import) their waits added up past the function's own 10 s: Lambda stops it and API
 * Gateway answers 500. With a deadline, a statement is given only the time left before it (and refused once
 * none is left), so the route answers the documented 503 `database_unavailable` with Retry-After instead,
 * and the connection is ended, which rolls its transaction back: nothing half done.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** time kept back from a function's timeout to answer with, after the last statement gave up */
const ANSWER_MARGIN_MS = 1_000;

const deadlines = new AsyncLocalStorage<number>();

/** Runs `work` with its statements bounded by `deadline` (epoch ms). */
export const withDatabaseDeadline = <T>(deadline: number, work: () => Promise<T>): Promise<T> => deadlines.run(deadline, work);

/** Runs `work` so that its statements end `ANSWER_MARGIN_MS` before the function's remaining time does. */
export const withinFunctionTime = <T>(remainingMs: number | undefined, work: () => Promise<T>): Promise<T> =>
  remainingMs === undefined ? work() : withDatabaseDeadline(Date.now() + remainingMs - ANSWER_MARGIN_MS, work);

/** The milliseconds the current request's statements have left, or undefined outside a deadline. */
export const databaseTimeLeft = (now = Date.now()): number | undefined => {
  const deadline = deadlines.getStore();
  return deadline === undefined ? undefined : deadline - now;
};

/** The error of a statement the deadline left no time for: read as "database unavailable" (errors.ts), a 503. */
export const deadlineReached = (): Error =>
  new Error("the request's time for the database ran out before this statement (database connection timed out)");
