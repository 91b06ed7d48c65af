/**
 * Placing a stored vector (embeddings/chunk-claims.ts placeStoredVectors) looks up, per LSH key, a few chunks already
 * placed (a graph node, or a version behind one) to find the node to go behind. Through the near-duplicate index
 * (0017: every representative's keys) such a lookup read every chunk sharing the key, waiting ones included, before
 * it found its few placed ones: a vector stored 4 kB inline fills a page, so placing the 800 versions of one passage
 * read up to 800 pages per key, each time, and a text's versions cost the square of their number. This index holds
 * the keys of placed chunks only, so a lookup reads few besides the handful it asks for. retrieval-versions.test.ts
 * (two passages in 800 versions each and 400 others), two runs each, before → after: placing its 2,000 chunks,
 * PGlite 8.5 / 8.4 → 5.6 / 5.7 s and PostgreSQL 6.4 / 6.0 → 3.2 / 3.5 s; placing again the 774 versions a deleted
 * node sent back to wait, PGlite 7.3 / 6.2 → 3.8 / 4.1 s and PostgreSQL 5.4 / 4.9 → 2.7 / 2.9 s.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      create index text_chunks_lsh_placed_idx on text_chunks using gin (lsh_bands) with (fastupdate = off)
        where duplicate_of is null and (indexed or graph_via is not null)`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop index text_chunks_lsh_placed_idx`.execute(db);
  },
};
