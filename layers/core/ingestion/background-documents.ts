/**
 * Background documents written through the API: reference material (policies, procedures) an analysis may draw on
 * but that never counts as evidence. Created with a presigned upload and extracted when the file arrives, as an
 * evidence item's attachment is; `included_for_ai` decides at retrieval time whether the AI is given it.
 */
import { sql, type Kysely } from 'kysely';
import type { OrgCaller } from '#core/auth/caller';
import type { Database } from '#core/db/schema';
import { notFound } from '#core/errors';
import { logger } from '#core/logger';
import { ensureUser } from '#core/repositories/users';
import type { ObjectRemover } from '#core/storage';
import { acceptFiles, type DeclaredFile } from './evidence';
import { requireInvestigation } from './investigations';
import type { Presigner, Upload } from './presign';
import { fileProblem, fileState, itemReadiness, type Readiness } from './readiness';
import { backgroundDocumentKey, UPLOAD_LIMITS, uploadDeadline } from './uploads';
import type { FileState } from '#core/domain/vocabulary';

export interface BackgroundDocumentView {
  background_document_id: string;
  investigation_id: string;
  title: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  included_for_ai: boolean;
  state: FileState;
  error: string | null;
  pages: number | null;
  readiness: Readiness;
  view_path: string;
  created_at: string;
  updated_at: string;
}

const scoped = (db: Kysely<Database>, organizationId: string, investigationId: string, documentId: string) =>
  db
    .selectFrom('background_documents as b')
    .innerJoin('investigations as i', 'i.id', 'b.investigation_id')
    .where('b.id', '=', documentId)
    .where('b.investigation_id', '=', investigationId)
    .where('i.organization_id', '=', organizationId);

const getBackgroundDocument = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  documentId: string,
  now: Date = new Date(),
): Promise<BackgroundDocumentView> => {
  const row = await scoped(db, organizationId, investigationId, documentId)
    .select([
      'b.id',
      'b.investigation_id',
      'b.title',
      'b.file_name',
      'b.content_type',
      'b.size_bytes',
      'b.included_for_ai',
      'b.extraction_status',
      'b.extraction_error',
      'b.upload_deadline',
      'b.pages',
      'b.created_at',
      'b.updated_at',
    ])
    .executeTakeFirst();
  if (!row) throw notFound('The background document');
  const state = fileState(row.extraction_status, row.upload_deadline, now);
  return {
    background_document_id: row.id,
    investigation_id: row.investigation_id,
    title: row.title,
    file_name: row.file_name,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    included_for_ai: row.included_for_ai,
    state,
    error: fileProblem(state, row.extraction_error),
    pages: row.pages,
    readiness: await itemReadiness(db, investigationId, documentId),
    view_path: `/api/storage/view?background_document_id=${row.id}`,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
};

export const createBackgroundDocument = async (
  deps: { db: Kysely<Database>; presign: Presigner; now?: () => Date },
  caller: OrgCaller,
  investigationId: string,
  input: DeclaredFile & { title: string; included_for_ai: boolean },
): Promise<BackgroundDocumentView & { upload: Upload }> => {
  const now = (deps.now ?? (() => new Date()))();
  const [{ contentType }] = acceptFiles([input]) as [{ file: DeclaredFile; contentType: string }];
  const documentId = crypto.randomUUID();
  const key = backgroundDocumentKey({ organizationId: caller.organizationId, investigationId, documentId }, input.file_name);
  await deps.db.transaction().execute(async (trx) => {
    await requireInvestigation(trx, caller.organizationId, investigationId);
    await trx
      .insertInto('background_documents')
      .values({
        id: documentId,
        investigation_id: investigationId,
        title: input.title,
        file_name: input.file_name,
        content_type: contentType,
        size_bytes: input.size_bytes,
        storage_key: key,
        included_for_ai: input.included_for_ai,
        extraction_status: 'awaiting_upload',
        upload_deadline: uploadDeadline(now),
        created_by: await ensureUser(trx, caller),
      })
      .execute();
  });
  const upload = await deps.presign({ key, contentType, sizeBytes: input.size_bytes, expiresInSeconds: UPLOAD_LIMITS.urlSeconds });
  return { ...(await getBackgroundDocument(deps.db, caller.organizationId, investigationId, documentId, now)), upload };
};

export const updateBackgroundDocument = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  documentId: string,
  patch: { title?: string | undefined; included_for_ai?: boolean | undefined },
): Promise<BackgroundDocumentView> => {
  const found = await scoped(db, organizationId, investigationId, documentId).select('b.id').executeTakeFirst();
  if (!found) throw notFound('The background document');
  await db
    .updateTable('background_documents')
    .set({
      ...(patch.title !== undefined && { title: patch.title }),
      ...(patch.included_for_ai !== undefined && { included_for_ai: patch.included_for_ai }),
      updated_at: sql`now()`,
    })
    .where('id', '=', documentId)
    .execute();
  return getBackgroundDocument(db, organizationId, investigationId, documentId);
};

/** Deletes the document with its chunks and embeddings (cascades), then its file. */
export const deleteBackgroundDocument = async (
  deps: { db: Kysely<Database>; files: ObjectRemover },
  organizationId: string,
  investigationId: string,
  documentId: string,
): Promise<{ background_document_id: string; deleted: true; chunks: number }> => {
  const removed = await deps.db.transaction().execute(async (trx) => {
    const row = await scoped(trx, organizationId, investigationId, documentId).select('b.storage_key').executeTakeFirst();
    if (!row) throw notFound('The background document');
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from text_chunks where background_document_id = ${documentId}`.execute(trx);
    await trx.deleteFrom('background_documents').where('id', '=', documentId).execute();
    return { key: row.storage_key, chunks: rows[0]?.n ?? 0 };
  });
  try {
    await deps.files.remove([removed.key]);
  } catch (error) {
    logger.warn('the file of a deleted background document could not be removed', { documentId, key: removed.key, error: error as Error });
  }
  return { background_document_id: documentId, deleted: true, chunks: removed.chunks };
};
