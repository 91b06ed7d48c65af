/**
 * Vectors stored in their rows (issue 26). pgvector's type asks for external storage, so every 1,024-dimension vector
 * (4,104 bytes, over the 2 kB TOAST threshold) went out of line: reading one meant the TOAST index and three TOAST
 * tuples, and the index path reads many (its 200 hits' vectors to re-sort them, and the versions behind their graph
 * nodes, up to RETRIEVAL.expansion.budget). PLAIN keeps the vector in its row, uncompressed (dense embeddings do not
 * compress), one row a page: measured at 100,000 chunks on PostgreSQL with production's shared buffers, the
 * clustered corpus's p50 fell from about 60 to about 45 ms (docs/retrieval.md). The column is vector(1024), so a row
 * always fits a page (its text still goes out of line when long). Rows written before keep their out-of-line vectors
 * until re-embedded: both read the same; no table rewrite here.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table text_chunks alter column embedding set storage plain`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`alter table text_chunks alter column embedding set storage external`.execute(db);
  },
};
