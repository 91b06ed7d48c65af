/**
 * The near-duplicate candidates' GIN index (0014) without its pending list, and over representatives only:
 * - `fastupdate = off`: with the default, new entries wait in a pending list that every lookup scans, and the
 *   insert that fills it (4 MB, about 10,000 chunks) merges it into the index. That insert holds the
 *   investigation's grouping lock (embeddings/chunk-store.ts) while it merges, and at 40,000 chunks on PostgreSQL
 *   every writer of the investigation queued behind it for seconds (measured with `npm run bench -- ingest
 *   --engine=postgres`). Written directly, an entry costs its 16 keys' b-tree inserts and no lookup scans a list;
 * - `where duplicate_of is null`: a duplicate is never a candidate (a chunk joins a representative), so its keys
 *   are dead weight; a duplicate promoted to representative (0016's trigger) enters the index with that update.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      `create index text_chunks_lsh_representatives_idx on text_chunks using gin (lsh_bands) with (fastupdate = off)
         where duplicate_of is null`,
      'drop index text_chunks_lsh_idx',
      'alter index text_chunks_lsh_representatives_idx rename to text_chunks_lsh_idx',
    ])
      await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      'create index text_chunks_lsh_all_idx on text_chunks using gin (lsh_bands)',
      'drop index text_chunks_lsh_idx',
      'alter index text_chunks_lsh_all_idx rename to text_chunks_lsh_idx',
    ])
      await sql.raw(statement).execute(db);
  },
};
