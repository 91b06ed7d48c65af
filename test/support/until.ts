/**
 * Polls `check` until it gives a value (anything but undefined), then returns it; fails with `what` past the deadline.
 * For what the twin does on its own time (queues, workers, wake-ups): a test waits for the outcome, not a fixed sleep.
 */
export const until = async <T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 250): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
};
