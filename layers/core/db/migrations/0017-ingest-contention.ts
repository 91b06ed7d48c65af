/**
 * Writers of one investigation queue on each other less (measured with `npm run bench -- ingest --engine=postgres`:
 * eight uploaders and the extraction workers into one investigation; evidence creates fell from 400 to 135 a
 * minute over the first 3,500 documents, every writer waiting on one transaction):
 * - the evidence and attachment counters (0004) touch the investigation's row only when a count changes. An
 *   attachment's every update (its upload deadline, its extraction status: three a file) updated the row by zero
 *   and so locked it until the writing transaction committed, behind whatever that transaction did next (an
 *   extraction's chunks and near-duplicate grouping);
 * - the near-duplicate candidates' GIN index (0014) is written directly (`fastupdate = off`) and holds
 *   representatives only. With the default, new entries wait in a pending list that every lookup scans, and the
 *   insert that fills it (4 MB, about 10,000 chunks) merges it into the index inside the investigation's grouping
 *   lock (embeddings/chunk-store.ts). A duplicate is never a candidate; one promoted to representative (0016's
 *   trigger) enters the index with that update.
 */
import { sql, type Kysely } from 'kysely';
import { countAttachmentsFunction, countEvidenceFunction } from './0004-evidence-counters';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      countEvidenceFunction({ onlyChanges: true }),
      countAttachmentsFunction({ onlyChanges: true }),
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
      countAttachmentsFunction({ onlyChanges: false }),
      countEvidenceFunction({ onlyChanges: false }),
    ])
      await sql.raw(statement).execute(db);
  },
};
