/**
 * Waking the embedding worker: every writer of chunks sends this after its transaction commits. The message only
 * says where work waits; the database is the work list (chunks without embeddings), so a lost or repeated wake-up
 * loses nothing and embeds nothing twice, and the hourly sweeper catches what no wake-up reached.
 */
import { enqueue } from '#core/queues';

export const wakeEmbedding = (investigationId: string, delaySeconds?: number): Promise<void> =>
  enqueue('embedding', { investigation_id: investigationId }, delaySeconds);
