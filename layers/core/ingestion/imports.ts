/**
 * Bulk imports as the API shows them: started with a presigned upload of the whole file (its size bound in the
 * signature), then processed in the background by the import worker (import-run.ts) when the file arrives.
 */
import type { Kysely } from 'kysely';
import type { OrgCaller } from '#core/auth/caller';
import type { Database } from '#core/db/schema';
import type { ImportFormat, ImportStatus } from '#core/domain/vocabulary';
import { notFound } from '#core/errors';
import { ensureUser } from '#core/repositories/users';
import { requireInvestigation } from './investigations';
import type { Presigner, Upload } from './presign';
import { IMPORT_LIMITS, importKey, uploadDeadline } from './uploads';

/** The media type an import file is uploaded and stored as. */
export const IMPORT_CONTENT_TYPE: Record<ImportFormat, string> = { ndjson: 'application/x-ndjson', seed: 'application/json' };

export interface ImportView {
  import_id: string;
  investigation_id: string;
  format: ImportFormat;
  size_bytes: number;
  status: ImportStatus;
  lines_total: number | null;
  lines_done: number;
  lines_failed: number;
  errors: { line: number; field: string; message: string }[];
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

export const getImport = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  importId: string,
): Promise<ImportView> => {
  const row = await db
    .selectFrom('imports as m')
    .innerJoin('investigations as i', 'i.id', 'm.investigation_id')
    .selectAll('m')
    .where('m.id', '=', importId)
    .where('m.investigation_id', '=', investigationId)
    .where('i.organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) throw notFound('The import');
  const errors = await db
    .selectFrom('import_errors')
    .select(['line', 'field', 'message'])
    .where('import_id', '=', importId)
    .orderBy('line')
    .orderBy('field')
    .limit(IMPORT_LIMITS.errorsShown)
    .execute();
  return {
    import_id: row.id,
    investigation_id: row.investigation_id,
    format: row.format,
    size_bytes: Number(row.size_bytes),
    status: row.status,
    lines_total: row.lines_total,
    lines_done: row.lines_done,
    lines_failed: row.lines_failed,
    errors,
    error: row.error_message,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
};

export const createImport = async (
  deps: { db: Kysely<Database>; presign: Presigner; now?: () => Date },
  caller: OrgCaller,
  investigationId: string,
  input: { format: ImportFormat; size_bytes: number },
): Promise<ImportView & { upload: Upload }> => {
  const now = (deps.now ?? (() => new Date()))();
  const importId = crypto.randomUUID();
  const key = importKey(importId);
  await deps.db.transaction().execute(async (trx) => {
    await requireInvestigation(trx, caller.organizationId, investigationId);
    await trx
      .insertInto('imports')
      .values({
        id: importId,
        investigation_id: investigationId,
        format: input.format,
        size_bytes: input.size_bytes,
        storage_key: key,
        upload_deadline: uploadDeadline(now, IMPORT_LIMITS.urlSeconds),
        created_by: await ensureUser(trx, caller),
      })
      .execute();
  });
  const upload = await deps.presign({
    key,
    contentType: IMPORT_CONTENT_TYPE[input.format],
    sizeBytes: input.size_bytes,
    expiresInSeconds: IMPORT_LIMITS.urlSeconds,
  });
  return { ...(await getImport(deps.db, caller.organizationId, investigationId, importId)), upload };
};
