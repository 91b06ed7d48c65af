/**
 * GET /api/investigations/{investigation_id}/ingestion: how far an investigation's evidence has come in — items
 * ready, still processing and failed (readiness.ts), passages waiting for their embeddings, imports under way, and
 * what could not be taken in, with why.
 */
import { sql, type Kysely } from 'kysely';
import type { Database, SourceType } from '#core/db/schema';
import { notFound } from '#core/errors';
import { chunkCounts, EMBEDDING_MAX_ATTEMPTS, investigationItemCounts } from './readiness';
import { IMPORT_LIMITS } from './uploads';

export interface FailedPart {
  evidence_id: string | null;
  background_document_id: string | null;
  attachment_id: string | null;
  source_type: SourceType;
  title: string;
  file_name: string | null;
  message: string;
}

const MISSING = 'The file never arrived: its upload URL expired before anything was uploaded.';

/** Files that failed or never arrived, and texts given up by the embedding worker, oldest first. */
const failedParts = async (db: Kysely<Database>, investigationId: string): Promise<FailedPart[]> => {
  const { rows } = await sql<FailedPart & { at: Date }>`
    select * from (
      select a.evidence_item_id as evidence_id, null::uuid as background_document_id, a.id as attachment_id, 'attachment' as source_type,
             e.title, a.file_name,
             case when a.extraction_status = 'error' then coalesce(a.extraction_error, 'Its text could not be extracted.') else ${MISSING} end as message,
             a.created_at as at
        from attachments a join evidence_items e on e.id = a.evidence_item_id
       where a.investigation_id = ${investigationId} and a.extraction_status <> 'extracted'
         and (a.extraction_status = 'error' or (a.extraction_status = 'awaiting_upload' and a.upload_deadline <= now()))
      union all
      select null, b.id, null, 'background_doc', b.title, b.file_name,
             case when b.extraction_status = 'error' then coalesce(b.extraction_error, 'Its text could not be extracted.') else ${MISSING} end,
             b.created_at
        from background_documents b
       where b.investigation_id = ${investigationId} and b.extraction_status <> 'extracted'
         and (b.extraction_status = 'error' or (b.extraction_status = 'awaiting_upload' and b.upload_deadline <= now()))
      union all
      select s.evidence_item_id, s.background_document_id, case when s.source_type = 'attachment' then s.source_id end, s.source_type,
             coalesce(e.title, b.title, ''), coalesce(a.file_name, b.file_name),
             'Its text could not be embedded: ' || coalesce(s.error_message, 'no reason recorded'), s.created_at
        from embedding_sources s
        left join evidence_items e on e.id = s.evidence_item_id
        left join background_documents b on b.id = s.background_document_id
        left join attachments a on s.source_type = 'attachment' and a.id = s.source_id
       where s.investigation_id = ${investigationId} and s.status = 'error' and s.attempts >= ${EMBEDDING_MAX_ATTEMPTS}
    ) failed order by at limit ${IMPORT_LIMITS.errorsShown}`.execute(db);
  return rows.map(({ at: _at, ...part }) => part);
};

export const ingestionStatus = async (db: Kysely<Database>, organizationId: string, investigationId: string) => {
  const investigation = await db
    .selectFrom('investigations')
    .select(['evidence_count', 'background_document_count'])
    .where('id', '=', investigationId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!investigation) throw notFound('The investigation');
  const [items, chunks, failed, imports] = await Promise.all([
    investigationItemCounts(db, investigationId, {
      evidenceItems: investigation.evidence_count,
      backgroundDocuments: investigation.background_document_count,
    }),
    chunkCounts(db, investigationId),
    failedParts(db, investigationId),
    db
      .selectFrom('imports')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('investigation_id', '=', investigationId)
      .where('status', 'in', ['queued', 'processing'])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    investigation_id: investigationId,
    items_total: items.total,
    items_ready: items.ready,
    items_processing: items.processing,
    items_failed: items.failed,
    chunks_total: chunks.total,
    chunks_pending: chunks.pending,
    imports_in_progress: imports.n,
    failed,
  };
};
