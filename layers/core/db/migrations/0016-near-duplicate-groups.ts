/**
 * Near-duplicate groups (issue 26; embeddings/near-duplicates.ts groups the chunks as they are written), and vectors
 * indexed after they are stored:
 * - the HNSW index holds one vector per group, its representative's, once it is `indexed`: rebuilt as a partial index
 *   over the chunks whose `duplicate_of` is null and `indexed` true. A duplicate carries a copy of its
 *   representative's vector, for its own item's readiness, but never enters the graph. A vector is stored without
 *   entering the graph (an insert into the m 32 graph costs 20–40 ms of the database's time, measured: at a real
 *   matter's size that, not the model, bounds how soon evidence is analysable); the embedding work then indexes the
 *   stored vectors a few at a time (`indexed`), and retrieval searches the graph and, exactly, the vectors not yet in
 *   it (text_chunks_unindexed_idx holds them), so a passage is found from the moment its vector is stored;
 * - a group outlives its representative: when a representative is deleted (its item or document deleted, or its
 *   text changed), the group's oldest remaining member becomes the representative and the others point at it. A
 *   statement-level trigger, so a cascaded delete of a whole item re-forms every group it touched in one pass;
 * - the chunks of an evidence item or background document are found by index (its readiness, its delete's cascade,
 *   a retrieved passage's duplicates), not by a scan of every chunk.
 */
import { sql, type Kysely } from 'kysely';

const up = [
  `alter table text_chunks add column indexed boolean not null default false`,
  // the vectors stored until now are in the graph already
  `update text_chunks set indexed = true where embedding is not null and duplicate_of is null`,
  `create index text_chunks_unindexed_idx on text_chunks (investigation_id)
     where embedding is not null and duplicate_of is null and not indexed`,
  `create index text_chunks_evidence_item_idx on text_chunks (evidence_item_id) where evidence_item_id is not null`,
  `create index text_chunks_background_document_idx on text_chunks (background_document_id) where background_document_id is not null`,
  `create index text_chunks_embedding_groups_idx on text_chunks using hnsw (embedding vector_cosine_ops)
     with (m = 32, ef_construction = 256) where duplicate_of is null and indexed`,
  `drop index text_chunks_embedding_idx`,
  `alter index text_chunks_embedding_groups_idx rename to text_chunks_embedding_idx`,
  `create function promote_near_duplicates() returns trigger language plpgsql as $$
   begin
     with orphaned as (
       select distinct on (c.duplicate_of) c.duplicate_of as old_representative, c.id as new_representative
         from text_chunks c join old_rows o on o.id = c.duplicate_of
        order by c.duplicate_of, c.created_at, c.id
     )
     -- the new representative's vector (a copy) is not in the graph: it waits to be indexed, found exactly meanwhile
     update text_chunks c
        set duplicate_of = case when c.id = o.new_representative then null else o.new_representative end,
            indexed = false
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
      'drop index text_chunks_unindexed_idx',
      'alter table text_chunks drop column indexed',
      'drop index text_chunks_background_document_idx',
      'drop index text_chunks_evidence_item_idx',
    ])
      await sql.raw(statement).execute(db);
  },
};
