/** What the embedding work is doing, for GET /api/admin/queue-stats: three counts, each read from an index. */
import { sql, type Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '#core/db/schema';
import { ifUsed } from '#core/if-used';

const count = /* @__PURE__ */ ifUsed(() => z.number().int().nonnegative());

export const embeddingActivitySchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    pending: count.describe("chunks waiting for their embeddings (a near-duplicate, which takes its representative's vector, not counted)"),
    requests_last_hour: count.describe(
      'embedding requests to the model in the last hour, every attempt (the ledger: evidence batches of up to 96 texts, and each analysis’s query)',
    ),
    chunks_embedded_last_hour: count.describe(
      'chunks that got their vectors in the last hour (from the model, or copied from their representative)',
    ),
  }),
);

export type EmbeddingActivity = z.infer<typeof embeddingActivitySchema>;

export const embeddingActivity = async (db: Kysely<Database>): Promise<EmbeddingActivity> => {
  const { rows } = await sql<EmbeddingActivity>`
    select
      (select count(*)::int from text_chunks where embedding is null and duplicate_of is null) as pending,
      (select count(*)::int from ai_calls where purpose = 'embedding' and created_at > now() - interval '1 hour') as requests_last_hour,
      (select count(*)::int from text_chunks where embedded_at > now() - interval '1 hour') as chunks_embedded_last_hour`.execute(db);
  return rows[0]!;
};
