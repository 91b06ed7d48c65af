/**
 * Evidence items written through the API: created with their text and the files to upload, read with how far
 * each part has come in, changed, deleted. Everything is checked before the one transaction that writes, so a
 * refused request changes nothing; the text is chunked in that transaction (embeddings/chunk-store.ts) and the
 * embedding worker is woken after it commits. Files get presigned uploads (presign.ts) and are extracted when they
 * arrive (extraction.ts).
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { OrgCaller } from '#core/auth/caller';
import type { Database } from '#core/db/schema';
import { isoTime } from '#core/db/values';
import { writeSourceChunks } from '#core/embeddings/chunk-store';
import { conflict, DomainError, notFound, validationFailed } from '#core/errors';
import { logger } from '#core/logger';
import { ensureUser } from '#core/repositories/users';
import type { ObjectRemover } from '#core/storage';
import { LIMITS } from './fields';
import { requireInvestigation } from './investigations';
import type { Presigner, Upload } from './presign';
import { fileProblem, fileState, itemReadiness, type Readiness } from './readiness';
import { acceptFile, attachmentKey, UPLOAD_LIMITS, uploadDeadline } from './uploads';

export interface EvidenceDeps {
  db: Kysely<Database>;
  presign: Presigner;
  /** wakes the embedding worker for the investigation (after the transaction that wrote the chunks) */
  wake: (investigationId: string) => Promise<unknown>;
  now?: () => Date;
}

/** What issuing uploads needs: no embedding (files are embedded once extracted). */
export type UploadDeps = Omit<EvidenceDeps, 'wake'>;

export interface DeclaredFile {
  file_name: string;
  content_type: string;
  size_bytes: number;
}

export interface EvidenceInput {
  title: string;
  content?: string | undefined;
  collected_at?: string | undefined;
  linked_question_ids?: string[] | undefined;
  attachments?: DeclaredFile[] | undefined;
  idempotency_key?: string | undefined;
}

interface AttachmentView {
  attachment_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  state: ReturnType<typeof fileState>;
  error: string | null;
  pages: number | null;
  view_path: string;
}

export interface EvidenceView {
  evidence_id: string;
  investigation_id: string;
  title: string;
  content: string;
  collected_at: string | null;
  linked_question_ids: string[];
  attachments: AttachmentView[];
  readiness: Readiness;
  chunks: { total: number; embedded: number };
  created_at: string;
  updated_at: string;
}

export type UploadFor = Upload & { attachment_id: string };

const attachmentViewPath = (id: string) => `/api/storage/view?attachment_id=${id}`;

/** Files the service cannot read are refused up front (415), every one named, before anything is written. */
export const acceptFiles = (files: readonly DeclaredFile[], listPath?: string): { file: DeclaredFile; contentType: string }[] => {
  const problems: { path: string; message: string }[] = [];
  const accepted = files.map((file, i) => {
    const decision = acceptFile(file);
    if (!decision.ok) problems.push({ path: listPath ? `${listPath}.${i}.content_type` : 'content_type', message: decision.message });
    return { file, contentType: decision.ok ? decision.contentType : file.content_type };
  });
  if (problems.length > 0)
    throw new DomainError('unsupported', 'unsupported_file_type', `Only ${UPLOAD_LIMITS.acceptedText} files can be analysed.`, problems);
  return accepted;
};

/** Refuses question ids that are not this investigation's (unknown, or another investigation's), naming each. */
const checkQuestions = async (trx: Kysely<Database>, investigationId: string, ids: readonly string[]): Promise<void> => {
  if (ids.length === 0) return;
  const known = new Set(
    (
      await trx
        .selectFrom('questions')
        .select('id')
        .where('investigation_id', '=', investigationId)
        .where(
          'id',
          'in',
          ids.map((id) => id.toLowerCase()),
        )
        .execute()
    ).map((q) => q.id),
  );
  const unknown = ids.flatMap((id, i) =>
    known.has(id.toLowerCase()) ? [] : [{ path: `linked_question_ids.${i}`, message: 'is not a question of this investigation' }],
  );
  if (unknown.length > 0) throw validationFailed(unknown);
};

/** Locks the organization's evidence item of this investigation for the rest of the transaction, or 404. */
const lockEvidenceItem = async (trx: Kysely<Database>, organizationId: string, investigationId: string, evidenceId: string) => {
  const item = await trx
    .selectFrom('evidence_items as e')
    .innerJoin('investigations as i', 'i.id', 'e.investigation_id')
    .select(['e.id', 'e.content'])
    .where('e.id', '=', evidenceId)
    .where('e.investigation_id', '=', investigationId)
    .where('i.organization_id', '=', organizationId)
    .forUpdate('e')
    .executeTakeFirst();
  if (!item) throw notFound('The evidence item');
  return item;
};

/** JSON with every object's keys in order: the same request always gives the same text. */
const canonicalJson = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonicalJson).join(',')}]`
    : value !== null && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
          .join(',')}}`
      : JSON.stringify(value);

/** The request a key stands for: a retry with another body under the same key is refused, not taken as the first. */
export const fingerprintOf = (input: EvidenceInput): string => {
  const { idempotency_key: _key, ...request } = input;
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
};

const hasText = (content: string | undefined): content is string => content !== undefined && /\S/.test(content);

/** Writes the item's attachments awaiting their uploads; returns their ids in order. */
const insertAttachments = async (
  trx: Kysely<Database>,
  ids: { organizationId: string; investigationId: string; evidenceId: string },
  files: readonly { file: DeclaredFile; contentType: string }[],
  deadline: Date,
): Promise<string[]> => {
  const out: string[] = [];
  for (const { file, contentType } of files) {
    const attachmentId = crypto.randomUUID();
    await trx
      .insertInto('attachments')
      .values({
        id: attachmentId,
        evidence_item_id: ids.evidenceId,
        file_name: file.file_name,
        content_type: contentType,
        size_bytes: file.size_bytes,
        storage_key: attachmentKey({ ...ids, attachmentId }, file.file_name),
        extraction_status: 'awaiting_upload',
        upload_deadline: deadline,
        // the statement's own time, not the transaction's: the files keep the order they were given in
        created_at: sql<Date>`clock_timestamp()`,
      })
      .execute();
    out.push(attachmentId);
  }
  return out;
};

/** Fresh upload URLs for the item's attachments whose files have not arrived, their deadlines moved to the new URLs'. */
const uploadsFor = async (deps: UploadDeps, evidenceId: string, only?: readonly string[]): Promise<UploadFor[]> => {
  const now = (deps.now ?? (() => new Date()))();
  let query = deps.db
    .selectFrom('attachments')
    .select(['id', 'storage_key', 'content_type', 'size_bytes'])
    .where('evidence_item_id', '=', evidenceId)
    .where('extraction_status', '=', 'awaiting_upload');
  if (only) query = query.where('id', 'in', only.length > 0 ? [...only] : ['00000000-0000-0000-0000-000000000000']);
  const awaiting = await query.orderBy('created_at').orderBy('id').execute();
  if (awaiting.length === 0) return [];
  await deps.db
    .updateTable('attachments')
    .set({ upload_deadline: uploadDeadline(now) })
    .where(
      'id',
      'in',
      awaiting.map((a) => a.id),
    )
    .where('extraction_status', '=', 'awaiting_upload')
    .execute();
  const uploads: UploadFor[] = [];
  for (const a of awaiting) {
    const upload = await deps.presign({
      key: a.storage_key,
      contentType: a.content_type,
      sizeBytes: Number(a.size_bytes),
      expiresInSeconds: UPLOAD_LIMITS.urlSeconds,
    });
    uploads.push({ attachment_id: a.id, ...upload });
  }
  return uploads;
};

/** The item as the API shows it, or 404 when it is not this organization's (or not in this investigation). */
export const getEvidence = async (
  db: Kysely<Database>,
  organizationId: string,
  investigationId: string,
  evidenceId: string,
  now: Date = new Date(),
): Promise<EvidenceView> => {
  const item = await db
    .selectFrom('evidence_items as e')
    .innerJoin('investigations as i', 'i.id', 'e.investigation_id')
    .select(['e.id', 'e.investigation_id', 'e.title', 'e.content', 'e.collected_at', 'e.created_at', 'e.updated_at'])
    .where('e.id', '=', evidenceId)
    .where('e.investigation_id', '=', investigationId)
    .where('i.organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!item) throw notFound('The evidence item');
  const [links, attachments, readiness, chunks] = await Promise.all([
    db.selectFrom('evidence_question_links').select('question_id').where('evidence_item_id', '=', evidenceId).execute(),
    db
      .selectFrom('attachments')
      .select(['id', 'file_name', 'content_type', 'size_bytes', 'extraction_status', 'extraction_error', 'upload_deadline', 'pages'])
      .where('evidence_item_id', '=', evidenceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    itemReadiness(db, investigationId, evidenceId),
    sql<{ total: number; embedded: number }>`
      select count(*)::int as total, count(embedding)::int as embedded from text_chunks where evidence_item_id = ${evidenceId}`.execute(db),
  ]);
  return {
    evidence_id: item.id,
    investigation_id: item.investigation_id,
    title: item.title,
    content: item.content,
    collected_at: isoTime(item.collected_at),
    linked_question_ids: links.map((l) => l.question_id).sort(),
    attachments: attachments.map((a) => {
      const state = fileState(a.extraction_status, a.upload_deadline, now);
      return {
        attachment_id: a.id,
        file_name: a.file_name,
        content_type: a.content_type,
        size_bytes: Number(a.size_bytes),
        state,
        error: fileProblem(state, a.extraction_error),
        pages: a.pages,
        view_path: attachmentViewPath(a.id),
      };
    }),
    readiness,
    chunks: chunks.rows[0] ?? { total: 0, embedded: 0 },
    created_at: item.created_at.toISOString(),
    updated_at: item.updated_at.toISOString(),
  };
};

export interface Created {
  replayed: boolean;
  evidence: EvidenceView & { uploads: UploadFor[] };
}

export const createEvidence = async (
  deps: EvidenceDeps,
  caller: OrgCaller,
  investigationId: string,
  input: EvidenceInput,
): Promise<Created> => {
  const { db } = deps;
  const now = (deps.now ?? (() => new Date()))();
  const files = acceptFiles(input.attachments ?? [], 'attachments');
  await requireInvestigation(db, caller.organizationId, investigationId);
  const fingerprint = fingerprintOf(input);

  const written = await db.transaction().execute(async (trx) => {
    const replay = async (): Promise<{ id: string; replayed: true } | undefined> => {
      if (input.idempotency_key === undefined) return undefined;
      const earlier = await trx
        .selectFrom('evidence_items')
        .select(['id', 'request_fingerprint'])
        .where('investigation_id', '=', investigationId)
        .where('idempotency_key', '=', input.idempotency_key)
        .executeTakeFirst();
      if (!earlier) return undefined;
      if (earlier.request_fingerprint !== fingerprint)
        throw conflict('This idempotency key was used before with a different request; use a new key for a new item.', {
          evidence_id: earlier.id,
        });
      return { id: earlier.id, replayed: true };
    };
    const earlier = await replay();
    if (earlier) return earlier;
    await checkQuestions(trx, investigationId, input.linked_question_ids ?? []);
    const createdBy = await ensureUser(trx, caller);
    const evidenceId = crypto.randomUUID();
    const inserted = await trx
      .insertInto('evidence_items')
      .values({
        id: evidenceId,
        investigation_id: investigationId,
        title: input.title,
        content: input.content ?? '',
        collected_at: input.collected_at ?? null,
        created_by: createdBy,
        idempotency_key: input.idempotency_key ?? null,
        request_fingerprint: input.idempotency_key === undefined ? null : fingerprint,
      })
      // a concurrent create with the same key got there first: answer its result
      .onConflict((oc) => oc.columns(['investigation_id', 'idempotency_key']).where('idempotency_key', 'is not', null).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return (await replay())!;
    if (input.linked_question_ids?.length) {
      await trx
        .insertInto('evidence_question_links')
        .values(input.linked_question_ids.map((q) => ({ evidence_item_id: evidenceId, question_id: q.toLowerCase() })))
        .execute();
    }
    await insertAttachments(trx, { organizationId: caller.organizationId, investigationId, evidenceId }, files, uploadDeadline(now));
    const chunks = hasText(input.content)
      ? (
          await writeSourceChunks(
            trx,
            {
              investigation_id: investigationId,
              source_type: 'content',
              source_id: evidenceId,
              evidence_item_id: evidenceId,
              background_document_id: null,
            },
            input.content,
          )
        ).chunks
      : 0;
    return { id: evidenceId, replayed: false as const, chunks };
  });

  if (!written.replayed && written.chunks > 0) await deps.wake(investigationId);
  const uploads = await uploadsFor(deps, written.id);
  const evidence = await getEvidence(db, caller.organizationId, investigationId, written.id, now);
  return { replayed: written.replayed, evidence: { ...evidence, uploads } };
};

export const addAttachments = async (
  deps: UploadDeps,
  organizationId: string,
  investigationId: string,
  evidenceId: string,
  attachments: readonly DeclaredFile[],
): Promise<EvidenceView & { uploads: UploadFor[] }> => {
  const now = (deps.now ?? (() => new Date()))();
  const files = acceptFiles(attachments, 'attachments');
  const added = await deps.db.transaction().execute(async (trx) => {
    await lockEvidenceItem(trx, organizationId, investigationId, evidenceId);
    const { n } = await trx
      .selectFrom('attachments')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('evidence_item_id', '=', evidenceId)
      .executeTakeFirstOrThrow();
    if (n + files.length > LIMITS.attachmentsPerEvidence)
      throw conflict(`An evidence item holds at most ${LIMITS.attachmentsPerEvidence} attachments; this one has ${n}.`);
    await trx.updateTable('evidence_items').set({ updated_at: sql`now()` }).where('id', '=', evidenceId).execute();
    return insertAttachments(trx, { organizationId, investigationId, evidenceId }, files, uploadDeadline(now));
  });
  const uploads = await uploadsFor(deps, evidenceId, added);
  return { ...(await getEvidence(deps.db, organizationId, investigationId, evidenceId, now)), uploads };
};

/** A new upload URL for an attachment whose file has not arrived (awaited, or missing after its deadline). */
export const reissueUpload = async (
  deps: UploadDeps,
  organizationId: string,
  ids: { investigationId: string; evidenceId: string; attachmentId: string },
): Promise<UploadFor> => {
  const attachment = await deps.db
    .selectFrom('attachments as a')
    .innerJoin('investigations as i', 'i.id', 'a.investigation_id')
    .select(['a.id', 'a.extraction_status'])
    .where('a.id', '=', ids.attachmentId)
    .where('a.evidence_item_id', '=', ids.evidenceId)
    .where('a.investigation_id', '=', ids.investigationId)
    .where('i.organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!attachment) throw notFound('The attachment');
  if (attachment.extraction_status !== 'awaiting_upload')
    throw conflict('The file has already arrived; to replace it, delete the attachment’s item or add the new file as another attachment.');
  const [upload] = await uploadsFor(deps, ids.evidenceId, [ids.attachmentId]);
  return upload!;
};

export interface EvidencePatch {
  title?: string | undefined;
  content?: string | undefined;
  collected_at?: string | null | undefined;
  linked_question_ids?: string[] | undefined;
}

export const updateEvidence = async (
  deps: Omit<EvidenceDeps, 'presign'>,
  organizationId: string,
  investigationId: string,
  evidenceId: string,
  patch: EvidencePatch,
): Promise<EvidenceView> => {
  const rewritten = await deps.db.transaction().execute(async (trx) => {
    const item = await lockEvidenceItem(trx, organizationId, investigationId, evidenceId);
    if (patch.linked_question_ids) await checkQuestions(trx, investigationId, patch.linked_question_ids);
    await trx
      .updateTable('evidence_items')
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.content !== undefined && { content: patch.content }),
        ...(patch.collected_at !== undefined && { collected_at: patch.collected_at }),
        updated_at: sql`now()`,
      })
      .where('id', '=', evidenceId)
      .execute();
    if (patch.linked_question_ids) {
      await trx.deleteFrom('evidence_question_links').where('evidence_item_id', '=', evidenceId).execute();
      if (patch.linked_question_ids.length > 0)
        await trx
          .insertInto('evidence_question_links')
          .values(patch.linked_question_ids.map((q) => ({ evidence_item_id: evidenceId, question_id: q.toLowerCase() })))
          .execute();
    }
    if (patch.content === undefined || patch.content === item.content) return 0;
    const written = await writeSourceChunks(
      trx,
      {
        investigation_id: investigationId,
        source_type: 'content',
        source_id: evidenceId,
        evidence_item_id: evidenceId,
        background_document_id: null,
      },
      patch.content,
    );
    return written.chunks;
  });
  if (rewritten > 0) await deps.wake(investigationId);
  return getEvidence(deps.db, organizationId, investigationId, evidenceId);
};

/** Deletes the item with its links, attachments, chunks and embeddings (cascades), then its files. */
export const deleteEvidence = async (
  deps: { db: Kysely<Database>; files: ObjectRemover },
  organizationId: string,
  investigationId: string,
  evidenceId: string,
): Promise<{ evidence_id: string; deleted: true; attachments: number; chunks: number }> => {
  const removed = await deps.db.transaction().execute(async (trx) => {
    await lockEvidenceItem(trx, organizationId, investigationId, evidenceId);
    const keys = (await trx.selectFrom('attachments').select('storage_key').where('evidence_item_id', '=', evidenceId).execute()).map(
      (a) => a.storage_key,
    );
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from text_chunks where evidence_item_id = ${evidenceId}`.execute(
      trx,
    );
    await trx.deleteFrom('evidence_items').where('id', '=', evidenceId).execute();
    return { keys, chunks: rows[0]?.n ?? 0 };
  });
  try {
    await deps.files.remove(removed.keys);
  } catch (error) {
    // the rows are gone, so nothing refers to the files: an operator can clear them; the user's delete stands
    logger.warn('files of a deleted evidence item could not be removed', { evidenceId, keys: removed.keys, error: error as Error });
  }
  return { evidence_id: evidenceId, deleted: true, attachments: removed.keys.length, chunks: removed.chunks };
};
