/**
 * Waiting for a database that is about to accept connections: right after a deployment creates it, an
 * RDS Proxy can refuse connections for a few minutes while its target registers. The deploy-time
 * migration waits it out instead of failing (and rolling back) the deployment.
 */
import { logger } from '#core/logger';

export interface ReachableOptions {
  attempts: number;
  delayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `check` until it resolves, at most `attempts` times `delayMs` apart; rethrows the last failure. */
export const untilReachable = async (check: () => Promise<void>, { attempts, delayMs, sleep = pause }: ReachableOptions): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await check();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      logger.warn(`database not reachable yet (attempt ${attempt} of ${attempts})`, { error: (error as Error).message });
      await sleep(delayMs);
    }
  }
};
