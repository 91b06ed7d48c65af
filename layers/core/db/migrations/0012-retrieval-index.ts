/**
 * The retrieval rule's index (issue 17, docs/retrieval.md): text_chunks_embedding_idx rebuilt as a denser
 * HNSW graph, m 32 and ef_construction 256 (pgvector's defaults are 16 and 64). With the default graph a
 * cluster of near-duplicate chunks can be an island the scan never reaches (recall@20 min 0.00 at 100k);
 * with this one and ef_search 1000 the rule measured 1.000 on the topical corpus and 0.999 (min 0.95) on
 * near-duplicates. Same name, same column, so plans and the retrieval test keep naming it.
 *
 * The new graph is built under a temporary name before the old index goes: while it builds, reads (and
 * retrieval through the old index) go on and only writes to text_chunks wait; the drop and rename at the
 * end are brief. Not `concurrently`: the migrator runs each migration in a transaction. The build takes
 * minutes on a large table (measured 140–250 s at 100k chunks with maintenance_work_mem 1GB; docs/retrieval.md).
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`create index text_chunks_embedding_m32_idx on text_chunks using hnsw (embedding vector_cosine_ops) with (m = 32, ef_construction = 256)`.execute(
      db,
    );
    await sql`drop index text_chunks_embedding_idx`.execute(db);
    await sql`alter index text_chunks_embedding_m32_idx rename to text_chunks_embedding_idx`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`create index text_chunks_embedding_default_idx on text_chunks using hnsw (embedding vector_cosine_ops)`.execute(db);
    await sql`drop index text_chunks_embedding_idx`.execute(db);
    await sql`alter index text_chunks_embedding_default_idx rename to text_chunks_embedding_idx`.execute(db);
  },
};
