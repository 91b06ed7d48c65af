/**
 * Low-relevance analyses (issue 15, item 3): when no chunk reached the similarity floor, generation still
 * gives the model the closest few chunks (analysis/retrieval.ts) and marks the analysis `low_relevance`, so
 * the client can say the evidence it rests on is only weakly related. Earlier analyses were never in that
 * case (they failed or had no context), so false is right for them.
 */
import { sql, type Kysely } from 'kysely';

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table analyses add column low_relevance boolean not null default false`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`alter table analyses drop column low_relevance`.execute(db);
  },
};
