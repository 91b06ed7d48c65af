import { sql, type Kysely } from 'kysely';
import { migrateToLatest, migrations } from '#core/db/migrate';
import { EMBEDDING_DIMENSIONS } from '#core/db/migrations/0001-domain';
import type { Database } from '#core/db/schema';
import { tableNames, testEngine, useTestDatabase } from '../support/db';

/** The tables the typed schema (layers/core/db/schema.ts) declares: it must match what migrations build. */
const declaredTables = [
  'organizations',
  'users',
  'investigations',
  'questions',
  'topics',
  'evidence_items',
  'evidence_question_links',
  'attachments',
  'background_documents',
  'embedding_sources',
  'text_chunks',
  'prompt_templates',
  'analyses',
  'analysis_engagements',
  'analysis_revisions',
  'retrieval_records',
  'feedback',
  'audit_log',
  'audit_failures',
  'ai_calls',
  'job_runs',
  'rate_limit_counters',
  'payment_events',
  'milestones',
  'ai_quota_reservations',
  'imports',
  'import_errors',
] satisfies (keyof Database)[];

describe(`migrations on ${testEngine()}`, () => {
  const db = useTestDatabase();

  test('build every table of the domain, and nothing else', async () => {
    expect(await tableNames(db)).toEqual([...declaredTables].sort());
  });

  test('are recorded, and running them again is a no-op', async () => {
    const again = await migrateToLatest(db as Kysely<unknown>);
    expect(again.results).toEqual([]);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(rows.map((r) => r.name)).toEqual(Object.keys(migrations));
  });

  test('pgvector stores embeddings and orders chunks by cosine distance', async () => {
    const org = await db.insertInto('organizations').values({ name: 'Org' }).returning('id').executeTakeFirstOrThrow();
    const inv = await db
      .insertInto('investigations')
      .values({ organization_id: org.id, title: 'Inv' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = await db
      .insertInto('evidence_items')
      .values({ investigation_id: inv.id, title: 'Item', content: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const source = await db
      .insertInto('embedding_sources')
      .values({ investigation_id: inv.id, source_type: 'content', source_id: item.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unit = (i: number) => `[${Array.from({ length: EMBEDDING_DIMENSIONS }, (_, k) => (k === i ? 1 : 0)).join(',')}]`;
    await db
      .insertInto('text_chunks')
      .values(
        [0, 1, 2].map((i) => ({
          investigation_id: inv.id,
          embedding_source_id: source.id,
          source_type: 'content' as const,
          evidence_item_id: item.id,
          chunk_index: i,
          text: `chunk ${i}`,
          embedding: unit(i),
        })),
      )
      .execute();
    const { rows } = await sql<{ chunk_index: number; similarity: number }>`
      select chunk_index, 1 - (embedding <=> ${unit(2)}::vector) as similarity
      from text_chunks where investigation_id = ${inv.id} order by embedding <=> ${unit(2)}::vector limit 2`.execute(db);
    expect(rows[0]).toEqual({ chunk_index: 2, similarity: 1 });
    expect(rows[1]!.similarity).toBeCloseTo(0);
    // 0019: each vector in its row, whole (4 + 4 × 1,024 bytes), not compressed and not in the TOAST table
    const sizes = await sql<{ size: number }>`
      select pg_column_size(embedding) as size from text_chunks where investigation_id = ${inv.id}`.execute(db);
    expect(sizes.rows.map((r) => Number(r.size))).toEqual([1, 2, 3].map(() => 8 + 4 * EMBEDDING_DIMENSIONS));
    const toast = await sql<{
      name: string;
    }>`select reltoastrelid::regclass::text as name from pg_class where relname = 'text_chunks'`.execute(db);
    const outOfLine = await sql<{ n: number }>`select count(*)::int as n from ${sql.raw(toast.rows[0]!.name)}`.execute(db);
    expect(outOfLine.rows[0]!.n).toBe(0);
  });

  test('constraints refuse bad states', async () => {
    const org = await db.insertInto('organizations').values({ name: 'Org2' }).returning('id').executeTakeFirstOrThrow();
    const inv = await db
      .insertInto('investigations')
      .values({ organization_id: org.id, title: 'Inv' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto('analyses')
        .values({ investigation_id: inv.id, analysis_type: 'timeline' as never })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db.insertInto('analyses').values({ investigation_id: inv.id, analysis_type: 'summary', faithfulness_score: 1.5 }).execute(),
    ).rejects.toThrow();
    const a = await db
      .insertInto('analyses')
      .values({ investigation_id: inv.id, analysis_type: 'summary' })
      .returning(['id', 'generation_status'])
      .executeTakeFirstOrThrow();
    expect(a.generation_status).toBe('queued');
    await expect(
      db
        .insertInto('retrieval_records')
        .values({ analysis_id: a.id, rank: 1, source_type: 'content', similarity: 0.2, included: false })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto('prompt_templates')
      .values({
        prompt_type: 'test_prompt',
        version: 1,
        system_prompt: 's',
        user_prompt_template: 'u',
        restored_from_version: null,
        created_by: null,
      })
      .execute();
    await expect(
      db
        .insertInto('prompt_templates')
        .values({
          prompt_type: 'test_prompt',
          version: 1,
          system_prompt: 's',
          user_prompt_template: 'u',
          restored_from_version: null,
          created_by: null,
        })
        .execute(),
    ).rejects.toThrow();
  });

  test('evidence counters on the investigation stay exact through bulk inserts, updates and cascaded deletes', async () => {
    const org = await db.insertInto('organizations').values({ name: 'Counters' }).returning('id').executeTakeFirstOrThrow();
    const inv = await db
      .insertInto('investigations')
      .values({ organization_id: org.id, title: 'Counted' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = await db
      .insertInto('investigations')
      .values({ organization_id: org.id, title: 'Other' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const counters = async (id: string) =>
      db
        .selectFrom('investigations')
        .select(['evidence_count', 'content_evidence_count', 'attachment_count'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const items = await db
      .insertInto('evidence_items')
      .values([
        { investigation_id: inv.id, title: 'a', content: 'text' },
        { investigation_id: inv.id, title: 'b', content: '  \n ' },
        { investigation_id: inv.id, title: 'c', content: 'more text' },
        { investigation_id: other.id, title: 'd', content: 'elsewhere' },
      ])
      .returning('id')
      .execute();
    await db
      .insertInto('attachments')
      .values(
        items.slice(0, 2).flatMap((item, i) =>
          [0, 1].map((k) => ({
            evidence_item_id: item.id,
            file_name: `f${i}${k}.txt`,
            content_type: 'text/plain',
            storage_key: `k/${i}/${k}`,
          })),
        ),
      )
      .execute();
    expect(await counters(inv.id)).toEqual({ evidence_count: 3, content_evidence_count: 2, attachment_count: 4 });
    expect(await counters(other.id)).toEqual({ evidence_count: 1, content_evidence_count: 1, attachment_count: 0 });
    const filled = await db.selectFrom('attachments').select('investigation_id').distinct().execute();
    expect(filled).toEqual([{ investigation_id: inv.id }]);

    await db.updateTable('evidence_items').set({ content: 'now it has text' }).where('id', '=', items[1]!.id).execute();
    expect(await counters(inv.id)).toMatchObject({ content_evidence_count: 3 });
    await db.deleteFrom('evidence_items').where('id', '=', items[0]!.id).execute(); // cascades its 2 attachments
    expect(await counters(inv.id)).toEqual({ evidence_count: 2, content_evidence_count: 2, attachment_count: 2 });
    const { rows } = await sql<{ e: number; c: number; a: number }>`
      select (select count(*)::int from evidence_items where investigation_id = ${inv.id}) as e,
             (select count(*)::int from evidence_items where investigation_id = ${inv.id} and content ~ '[^[:space:]]') as c,
             (select count(*)::int from attachments where investigation_id = ${inv.id}) as a`.execute(db);
    expect(rows[0]).toEqual({ e: 2, c: 2, a: 2 });
  });

  test('counts cast to int agree across engines', async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from organizations`.execute(db);
    expect(typeof rows[0]!.n).toBe('number');
  });

  test("0015: the embedding work finds an investigation's waiting chunks, stale models and recent embeddings through indexes", async () => {
    const { rows } = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes
      where indexname in ('text_chunks_to_embed_investigation_idx', 'text_chunks_embedding_model_idx', 'text_chunks_embedded_at_idx', 'ai_calls_purpose_idx')
      order by indexname`.execute(db);
    expect(rows.map((r) => r.indexname)).toEqual([
      'ai_calls_purpose_idx',
      'text_chunks_embedded_at_idx',
      'text_chunks_embedding_model_idx',
      'text_chunks_to_embed_investigation_idx',
    ]);
    expect(rows.find((r) => r.indexname === 'text_chunks_to_embed_investigation_idx')!.indexdef).toMatch(
      /\(investigation_id, created_at\) WHERE \(\(embedding IS NULL\) AND \(duplicate_of IS NULL\)\)/,
    );
    const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where (table_name, column_name) in (('text_chunks', 'embedded_at'), ('analyses', 'waiting_for_evidence'))
      order by table_name`.execute(db);
    expect(columns.rows).toEqual([
      { table_name: 'analyses', column_name: 'waiting_for_evidence', data_type: 'jsonb' },
      { table_name: 'text_chunks', column_name: 'embedded_at', data_type: 'timestamp with time zone' },
    ]);
  });
});
