/**
 * Near-duplicate groups (issue 26; embeddings/near-duplicates.ts groups the chunks as they are written):
 * - the HNSW index holds one vector per group, its representative's: rebuilt as a partial index over the chunks
 *   whose `duplicate_of` is null (retrieval searches those only; a duplicate carries a copy of its representative's
 *   vector, for its own item's readiness, but never enters the graph);
 * - a group outlives its representative: when a representative is deleted (its item or document deleted, or its
 *   text changed), the group's oldest remaining member becomes the representative and the others point at it. A
 *   statement-level trigger, so a cascaded delete of a whole item re-forms every group it touched in one pass.
 */
import { sql, type Kysely } from 'kysely';

const up = [
  `create index text_chunks_embedding_groups_idx on text_chunks using hnsw (embedding vector_cosine_ops)
     with (m = 32, ef_construction = 256) where duplicate_of is null`,
  `drop index text_chunks_embedding_idx`,
  `alter index text_chunks_embedding_groups_idx rename to text_chunks_embedding_idx`,
  `create function promote_near_duplicates() returns trigger language plpgsql as $$
   begin
     with orphaned as (
       select distinct on (c.duplicate_of) c.duplicate_of as old_representative, c.id as new_representative
         from text_chunks c join old_rows o on o.id = c.duplicate_of
        order by c.duplicate_of, c.created_at, c.id
     )
     update text_chunks c
        set duplicate_of = case when c.id = o.new_representative then null else o.new_representative end
       from orphaned o
      where c.duplicate_of = o.old_representative;
     return null;
   end $$`,
  `create trigger text_chunks_promote_near_duplicates after delete on text_chunks referencing old table as old_rows
     for each statement execute function promote_near_duplicates()`,
];

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      'drop trigger text_chunks_promote_near_duplicates on text_chunks',
      'drop function promote_near_duplicates()',
      `create index text_chunks_embedding_full_idx on text_chunks using hnsw (embedding vector_cosine_ops) with (m = 32, ef_construction = 256)`,
      'drop index text_chunks_embedding_idx',
      'alter index text_chunks_embedding_full_idx rename to text_chunks_embedding_idx',
    ])
      await sql.raw(statement).execute(db);
  },
};
