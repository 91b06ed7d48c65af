/**
 * Waking the embedding worker. Whoever writes text as chunks (chunk-store.ts writeSourceChunks: evidence routes,
 * extraction, imports) calls `wakeEmbedding(investigationId)` AFTER its transaction commits — a worker woken before
 * would find nothing — and the worker embeds every chunk waiting, not only that investigation's. Best effort: a
 * wake-up that cannot be sent is logged and the write still stands; the hourly sweeper embeds what waits.
 */
import { logger } from '#core/logger';
import { enqueue, MAX_DELAY_SECONDS } from '#core/queues';

/**
 * A wake-up: the investigation whose text was written, and `done_writing` when its writer wrote all it will (a seed, the
 * end of an import), so the worker's last, partial request of it does not wait for more (embedding-work.ts StreamLinger).
 */
export interface EmbeddingWakeUp {
  investigation_id?: string;
  done_writing?: true;
}

const send = async (message: EmbeddingWakeUp, delaySeconds: number | undefined): Promise<boolean> => {
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
export const wakeEmbedding = (investigationId: string, options: { delaySeconds?: number; doneWriting?: boolean } = {}): Promise<boolean> =>
  send({ investigation_id: investigationId, ...(options.doneWriting && { done_writing: true }) }, options.delaySeconds);

/** The worker's own wake-up when work is left: `delaySeconds` (0..900) from now, when it can go on. */
export const wakeEmbeddingLater = (delaySeconds: number): Promise<boolean> => send({}, delaySeconds);
