import { sql } from 'kysely';
import { ANALYSIS_TYPES } from '#core/domain/analysis-types';
import { CONFIDENCE_LEVELS } from '#core/domain/confidence';
import { FEEDBACK_ACTIONS, FEEDBACK_STATUSES } from '#core/domain/feedback';
import { GENERATION_STATUSES, INITIAL_STATUS } from '#core/domain/generation-status';
import {
  AI_OUTCOMES,
  AI_PURPOSES,
  AUDIT_OUTCOMES,
  EMBEDDING_STATUSES,
  EXTRACTION_STATUSES,
  IMPORT_FORMATS,
  IMPORT_STATUSES,
  JOB_STATUSES,
  JOB_TRIGGERS,
  ROLES,
  SOURCE_TYPES,
} from '#core/domain/vocabulary';
import { testEngine, useTestDatabase } from '../support/db';

/** Every `column in (…)` CHECK the migrations build, by `table.column`, and the domain list it must equal. */
const DOMAIN_LISTS: Record<string, readonly string[]> = {
  'users.role': ROLES,
  'background_documents.extraction_status': EXTRACTION_STATUSES,
  'attachments.extraction_status': EXTRACTION_STATUSES,
  'imports.format': IMPORT_FORMATS,
  'imports.status': IMPORT_STATUSES,
  'embedding_sources.source_type': SOURCE_TYPES,
  'embedding_sources.status': EMBEDDING_STATUSES,
  'text_chunks.source_type': SOURCE_TYPES,
  'analyses.analysis_type': ANALYSIS_TYPES,
  'analyses.generation_status': GENERATION_STATUSES,
  'analyses.quality_confidence': CONFIDENCE_LEVELS,
  'analyses.feedback_status': FEEDBACK_STATUSES,
  'retrieval_records.source_type': SOURCE_TYPES,
  'feedback.action': FEEDBACK_ACTIONS,
  'feedback.status': FEEDBACK_STATUSES,
  'audit_log.outcome': AUDIT_OUTCOMES,
  'ai_calls.purpose': AI_PURPOSES,
  'ai_calls.outcome': AI_OUTCOMES,
  'job_runs.trigger': JOB_TRIGGERS,
  'job_runs.status': JOB_STATUSES,
};

/** Postgres stores `c in ('a', 'b')` as `CHECK ((c = ANY (ARRAY['a'::text, 'b'::text])))`. */
const LIST_CHECK = /^CHECK \(\("?(\w+)"? = ANY \(ARRAY\[(.*)\]\)\)\)$/;

describe(`the database's word lists on ${testEngine()} are the domain's`, () => {
  const db = useTestDatabase();

  const listChecks = async (): Promise<Record<string, string[]>> => {
    const { rows } = await sql<{ table_name: string; definition: string }>`
      select c.conrelid::regclass::text as table_name, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'c' and n.nspname = 'public'`.execute(db);
    const lists: Record<string, string[]> = {};
    for (const { table_name: table, definition } of rows) {
      const match = LIST_CHECK.exec(definition);
      if (!match) continue;
      lists[`${table}.${match[1]}`] = [...match[2]!.matchAll(/'([^']*)'::text/g)].map((m) => m[1]!);
    }
    return lists;
  };

  test('every list CHECK has a domain list, and each equals it, in order', async () => {
    const lists = await listChecks();
    expect(Object.keys(lists).sort()).toEqual(Object.keys(DOMAIN_LISTS).sort());
    for (const [column, values] of Object.entries(lists))
      expect({ column, values }).toEqual({ column, values: [...DOMAIN_LISTS[column]!] });
  });

  test('a new analysis starts where the state machine says, with or without the status written', async () => {
    const { rows } = await sql<{ column_default: string }>`
      select column_default from information_schema.columns where table_name = 'analyses' and column_name = 'generation_status'`.execute(
      db,
    );
    expect(rows[0]?.column_default).toBe(`'${INITIAL_STATUS}'::text`);
  });

  test('a value outside the list is refused (the CHECK is live, not only described)', async () => {
    const org = await db.insertInto('organizations').values({ name: 'Vocabulary' }).returning('id').executeTakeFirstOrThrow();
    const inv = await db
      .insertInto('investigations')
      .values({ organization_id: org.id, title: 'Inv' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto('analyses')
        .values({ investigation_id: inv.id, analysis_type: 'summary', generation_status: 'archived' as never })
        .execute(),
    ).rejects.toThrow();
  });
});
