/**
 * Waking the embedding worker. Whoever writes text as chunks (chunk-store.ts writeSourceChunks: evidence routes,
 * extraction, imports) calls `wakeEmbedding(investigationId)` AFTER its transaction commits — a worker woken before
 * would find nothing — and the worker embeds every chunk waiting, not only that investigation's. Best effort: a
 * wake-up that cannot be sent is logged and the write still stands; the hourly sweeper embeds what waits.
 */
import { logger } from '#core/logger';
import { enqueue, MAX_DELAY_SECONDS } from '#core/queues';

const send = async (message: { investigation_id?: string }, delaySeconds: number | undefined): Promise<boolean> => {
  const delay = delaySeconds === undefined ? undefined : Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
  try {
    await enqueue('embedding', message, delay);
    return true;
  } catch (error) {
    logger.warn('could not wake the embedding worker; the hourly sweeper embeds what waits', { ...message, error: error as Error });
    return false;
  }
};

/** Wakes the embedding worker for text just written (after the writing transaction); false when it could not be woken. */
export const wakeEmbedding = (investigationId: string, options: { delaySeconds?: number } = {}): Promise<boolean> =>
  send({ investigation_id: investigationId }, options.delaySeconds);

/** The worker's own wake-up when work is left: `delaySeconds` (0..900) from now, when it can go on. */
export const wakeEmbeddingLater = (delaySeconds: number): Promise<boolean> => send({}, delaySeconds);
