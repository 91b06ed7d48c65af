/**
 * Versions of a passage reach the HNSW graph through one of them (issue 26; embeddings/chunk-claims.ts places
 * them, analysis/retrieval.ts expands them). About a hundred versions of one text (drafts, a template filled in
 * again and again: 5 % of the words changed, too different to be near-duplicates) made a knot in the m 32 graph that
 * no search entered: one cluster of 1,000 never returned at 100,000 chunks (recall min 0.00, docs/retrieval.md).
 * A representative whose vector is stored is now placed either in the graph (`indexed`, as before) or, when it shares
 * an LSH key with a placed chunk and is within cosine GRAPH_ANCHOR_COSINE of that chunk's graph node, behind that
 * node (`graph_via`): it stays a retrievable chunk of its own, searched exactly once its node is among the index's
 * hits. The graph holds one node per knot, and the knots are gone.
 * - `graph_via` is set null when its node is deleted: the chunk waits to be placed again, and is found exactly
 *   meanwhile, like any stored vector not yet placed (text_chunks_unindexed_idx now leaves the placed ones out);
 * - text_chunks_graph_via_idx finds a node's chunks.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      `alter table text_chunks add column graph_via uuid references text_chunks (id) on delete set null`,
      `create index text_chunks_graph_via_idx on text_chunks (graph_via) where graph_via is not null`,
      `create index text_chunks_unplaced_idx on text_chunks (investigation_id)
         where embedding is not null and duplicate_of is null and not indexed and graph_via is null`,
      'drop index text_chunks_unindexed_idx',
      'alter index text_chunks_unplaced_idx rename to text_chunks_unindexed_idx',
    ])
      await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      'drop index text_chunks_unindexed_idx',
      `create index text_chunks_unindexed_idx on text_chunks (investigation_id)
         where embedding is not null and duplicate_of is null and not indexed`,
      'drop index text_chunks_graph_via_idx',
      'alter table text_chunks drop column graph_via',
    ])
      await sql.raw(statement).execute(db);
  },
};
