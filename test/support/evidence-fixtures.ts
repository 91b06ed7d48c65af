import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';

/** An evidence item of an investigation and its embedding source: the rows a test's chunks of it hang from. */
export const evidenceSource = async (db: Kysely<Database>, investigationId: string, title: string) => {
  const evidenceItemId = (
    await db
      .insertInto('evidence_items')
      .values({ investigation_id: investigationId, title, content: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const embeddingSourceId = (
    await db
      .insertInto('embedding_sources')
      .values({ investigation_id: investigationId, source_type: 'content', source_id: evidenceItemId })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  return { evidenceItemId, embeddingSourceId };
};
