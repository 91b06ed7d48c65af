/**
 * Embedding as chunk-level work (issue 26): the embedding worker claims the chunks waiting for their vectors many at
 * a time, one investigation at a time, and an analysis waits a while for evidence still being embedded.
 *
 * - text_chunks.embedded_at: when the chunk got its vector (from the model, or copied from its near-duplicate
 *   group's representative); the queue statistics count the chunks embedded in the last hour by it.
 * - text_chunks_to_embed_investigation_idx: an investigation's chunks waiting for their vectors, oldest first (the
 *   claim takes them from one investigation; 0014's text_chunks_to_embed_idx finds the investigation).
 * - text_chunks_embedding_model_idx: the embedded representatives by model, so finding vectors of a model that is
 *   no longer configured (to embed them again) reads the index, not the table.
 * - ai_calls_purpose_idx: the model requests of a purpose in a recent window (the queue statistics' embedding
 *   requests in the last hour), without a scan of the ledger.
 * - analyses.waiting_for_evidence: while a queued analysis waits for its investigation's evidence to be embedded,
 *   since when and how far the evidence has come (`{ since, ready, total }`); null otherwise.
 */
import { sql, type Kysely } from 'kysely';

const up = [
  `alter table text_chunks add column embedded_at timestamptz`,
  `create index text_chunks_embedded_at_idx on text_chunks (embedded_at) where embedded_at is not null`,
  `create index text_chunks_to_embed_investigation_idx on text_chunks (investigation_id, created_at)
     where embedding is null and duplicate_of is null`,
  `create index text_chunks_embedding_model_idx on text_chunks (embedding_model) where embedding is not null and duplicate_of is null`,
  `create index ai_calls_purpose_idx on ai_calls (purpose, created_at)`,
  `alter table analyses add column waiting_for_evidence jsonb`,
];

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      'alter table analyses drop column waiting_for_evidence',
      'drop index ai_calls_purpose_idx',
      'drop index text_chunks_embedding_model_idx',
      'drop index text_chunks_to_embed_investigation_idx',
      'drop index text_chunks_embedded_at_idx',
      'alter table text_chunks drop column embedded_at',
    ])
      await sql.raw(statement).execute(db);
  },
};
