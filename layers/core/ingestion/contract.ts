/**
 * The contracts of the ingestion routes (../contract.ts): evidence items with their files, background documents,
 * bulk imports and how far an investigation's evidence has come in. Files never pass through the API: a create
 * answers presigned uploads (size and type bound in the signature), and the file is extracted when it arrives.
 */
import * as z from 'zod';
import { defineRoute, uuid } from '#core/contract';
import { FILE_STATES, IMPORT_FORMATS, IMPORT_STATUSES, SOURCE_TYPES } from '#core/domain/vocabulary';
import { contentType, evidenceContent, fileName, isoDate, LIMITS, list, text } from './fields';
import { IMPORT_LIMITS, UPLOAD_LIMITS } from './uploads';
import { ifUsed } from '#core/if-used';

const investigationParams = /* @__PURE__ */ ifUsed(() => z.object({ investigation_id: uuid }));
const evidenceParams = /* @__PURE__ */ ifUsed(() => investigationParams.extend({ evidence_id: uuid }));
const backgroundDocumentParams = /* @__PURE__ */ ifUsed(() => investigationParams.extend({ background_document_id: uuid }));
const timestamp = /* @__PURE__ */ ifUsed(() => z.iso.datetime());

const NOT_FOUND = "No such investigation (or item) in the caller's organization";

// ---- uploads ---------------------------------------------------------------------------------

/** A file as its uploader declares it: the upload URL is signed for exactly this size and type. */
export const declaredFileSchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    file_name: fileName,
    content_type: contentType.describe(
      `the file's media type: ${UPLOAD_LIMITS.acceptedText}; application/octet-stream lets the file name's extension decide`,
    ),
    size_bytes: z
      .number()
      .int('must be a whole number of bytes')
      .min(1, 'must be at least 1 (an empty file holds no evidence)')
      .max(UPLOAD_LIMITS.maxFileBytes, `must be at most ${UPLOAD_LIMITS.maxFileBytes} bytes (${UPLOAD_LIMITS.maxFileBytes / 2 ** 20} MiB)`),
  }),
);

export const uploadSchema = /* @__PURE__ */ ifUsed(() =>
  z
    .object({
      url: z
        .string()
        .describe('presigned S3 URL: send the file there with this method and these headers, the body exactly size_bytes long'),
      method: z.literal('PUT'),
      headers: z.record(z.string(), z.string()).describe('headers the signature binds (Content-Type); the body length is bound too'),
      expires_at: timestamp,
    })
    .describe('Where the file goes: straight to the files bucket, never through the API'),
);

export const fileStateSchema = /* @__PURE__ */ ifUsed(() =>
  z
    .enum(FILE_STATES)
    .describe(
      'awaiting_upload: the upload URL was issued and the file has not arrived; pending: it arrived and its text is being extracted; ' +
        'extracted: its text is in, embedded as soon as the model quota allows; error: extraction failed (see error); ' +
        'upload_missing: the upload never arrived before its deadline (ask for a new upload URL, or delete it)',
    ),
);

const attachmentSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    attachment_id: uuid,
    file_name: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int(),
    state: fileStateSchema,
    error: z.string().nullable(),
    pages: z.number().int().nullable().describe("a PDF's page count"),
    view_path: z.string().describe('GET this path to open the file (/api/storage/view)'),
  }),
);

const attachmentUploadSchema = /* @__PURE__ */ ifUsed(() => uploadSchema.extend({ attachment_id: uuid }));

// ---- evidence items --------------------------------------------------------------------------

export const READINESS = ['ready', 'processing', 'failed'] as const;
export const readinessSchema = /* @__PURE__ */ ifUsed(() =>
  z
    .enum(READINESS)
    .describe(
      'ready: every text of the item is embedded, so retrieval finds it; processing: a file is awaited or being extracted, or a text ' +
        'waits for its embeddings; failed: a file could not be read, never arrived, or its text could not be embedded (the rest is analysed)',
    ),
);

export const evidenceSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    evidence_id: uuid,
    investigation_id: uuid,
    title: z.string(),
    content: z.string(),
    collected_at: timestamp.nullable(),
    linked_question_ids: z.array(uuid),
    attachments: z.array(attachmentSchema),
    readiness: readinessSchema,
    chunks: z
      .object({ total: z.number().int(), embedded: z.number().int() })
      .describe("the item's passages, and those with their embeddings"),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

const linkedQuestionIds = /* @__PURE__ */ ifUsed(() =>
  list(uuid, LIMITS.linkedQuestions)
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, 'must not name a question twice')
    .describe("questions of this investigation the item is evidence for (another investigation's question is refused)"),
);

export const evidenceCreateBodySchema = /* @__PURE__ */ ifUsed(() =>
  z.strictObject({
    title: text(LIMITS.title),
    content: evidenceContent.optional().describe("the item's own text (may be left out when the item is only its files)"),
    collected_at: isoDate.optional(),
    linked_question_ids: linkedQuestionIds.optional(),
    attachments: list(declaredFileSchema, LIMITS.attachmentsPerEvidence)
      .optional()
      .describe('files to upload: each gets a presigned upload in the answer'),
    idempotency_key: z
      .string()
      .min(1)
      .max(LIMITS.idempotencyKey)
      .optional()
      .describe(
        'retrying a create with the same key answers the first result again (fresh upload URLs for files not yet arrived) and adds nothing',
      ),
  }),
);

const evidenceCreatedSchema = /* @__PURE__ */ ifUsed(() => evidenceSchema.extend({ uploads: z.array(attachmentUploadSchema) }));

export const evidenceCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/investigations/{investigation_id}/evidence',
    status: 201,
    location: 'the evidence item (GET …/evidence/{evidence_id})',
    errors: {
      404: NOT_FOUND,
      409: 'The idempotency key was used before with a different request',
      415: 'A file of a type whose text cannot be extracted',
    },
    params: investigationParams,
    body: evidenceCreateBodySchema,
    response: evidenceCreatedSchema,
  }),
);

export const evidenceGetRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/investigations/{investigation_id}/evidence/{evidence_id}',
    errors: { 404: NOT_FOUND },
    params: evidenceParams,
    response: evidenceSchema,
  }),
);

export const evidenceUpdateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'PATCH /api/investigations/{investigation_id}/evidence/{evidence_id}',
    errors: { 404: NOT_FOUND },
    params: evidenceParams,
    body: z
      .strictObject({
        title: text(LIMITS.title).optional(),
        content: evidenceContent.optional().describe('replaces the text; its passages are embedded again'),
        collected_at: isoDate.nullable().optional(),
        linked_question_ids: linkedQuestionIds.optional().describe('replaces the links'),
      })
      .refine((body) => Object.keys(body).length > 0, 'must change at least one field'),
    response: evidenceSchema,
  }),
);

export const evidenceDeleteRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'DELETE /api/investigations/{investigation_id}/evidence/{evidence_id}',
    errors: { 404: NOT_FOUND },
    params: evidenceParams,
    response: z.object({
      evidence_id: uuid,
      deleted: z.literal(true),
      attachments: z.number().int().describe('attachments deleted with it (their files too)'),
      chunks: z.number().int().describe('passages deleted with it, embeddings included'),
    }),
  }),
);

export const attachmentAddRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/investigations/{investigation_id}/evidence/{evidence_id}/attachments',
    status: 201,
    location: 'the evidence item',
    errors: {
      404: NOT_FOUND,
      409: 'The item would hold more than the most attachments an item may have',
      415: 'A file type whose text cannot be extracted',
    },
    params: evidenceParams,
    body: z.strictObject({ attachments: list(declaredFileSchema, LIMITS.attachmentsPerEvidence).min(1, 'must list at least one file') }),
    response: evidenceCreatedSchema,
  }),
);

export const attachmentUploadRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/investigations/{investigation_id}/evidence/{evidence_id}/attachments/{attachment_id}/upload',
    errors: { 404: NOT_FOUND, 409: 'The file has already arrived' },
    params: evidenceParams.extend({ attachment_id: uuid }),
    response: attachmentUploadSchema,
  }),
);

// ---- background documents --------------------------------------------------------------------

export const backgroundDocumentSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    background_document_id: uuid,
    investigation_id: uuid,
    title: z.string(),
    file_name: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int(),
    included_for_ai: z.boolean(),
    state: fileStateSchema,
    error: z.string().nullable(),
    pages: z.number().int().nullable(),
    readiness: readinessSchema,
    view_path: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const backgroundDocumentCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/investigations/{investigation_id}/background-documents',
    status: 201,
    location: 'the investigation',
    errors: { 404: NOT_FOUND, 415: 'A file type whose text cannot be extracted' },
    params: investigationParams,
    body: declaredFileSchema.extend({
      title: text(LIMITS.title),
      included_for_ai: z.boolean().default(true).describe('false keeps the document out of AI analyses (retrieval skips it)'),
    }),
    response: backgroundDocumentSchema.extend({ upload: uploadSchema }),
  }),
);

export const backgroundDocumentUpdateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'PATCH /api/investigations/{investigation_id}/background-documents/{background_document_id}',
    errors: { 404: NOT_FOUND },
    params: backgroundDocumentParams,
    body: z
      .strictObject({ title: text(LIMITS.title).optional(), included_for_ai: z.boolean().optional() })
      .refine((body) => Object.keys(body).length > 0, 'must change at least one field'),
    response: backgroundDocumentSchema,
  }),
);

export const backgroundDocumentDeleteRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'DELETE /api/investigations/{investigation_id}/background-documents/{background_document_id}',
    errors: { 404: NOT_FOUND },
    params: backgroundDocumentParams,
    response: z.object({ background_document_id: uuid, deleted: z.literal(true), chunks: z.number().int() }),
  }),
);

// ---- bulk imports ----------------------------------------------------------------------------

export const importSchema = /* @__PURE__ */ ifUsed(() =>
  z.object({
    import_id: uuid,
    investigation_id: uuid,
    format: z.enum(IMPORT_FORMATS),
    size_bytes: z.number().int(),
    status: z
      .enum(IMPORT_STATUSES)
      .describe(
        'awaiting_upload: the file has not arrived; queued: it arrived; processing: lines are being written; complete: every line was ' +
          'read (lines with errors are listed, the rest are in); failed: the file as a whole could not be read (see error)',
      ),
    lines_total: z.number().int().nullable().describe('lines (NDJSON) or evidence entries (seed) in the file, once it has been read'),
    lines_done: z.number().int().describe('lines read so far, with or without an error'),
    lines_failed: z.number().int(),
    errors: z
      .array(z.object({ line: z.number().int().describe('from 1'), field: z.string(), message: z.string() }))
      .describe(`the first ${IMPORT_LIMITS.errorsShown} problems, in line order; a line with a problem adds nothing`),
    error: z.string().nullable(),
    created_at: timestamp,
    finished_at: timestamp.nullable(),
  }),
);

export const importCreateRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'POST /api/investigations/{investigation_id}/imports',
    status: 201,
    location: 'the import (GET …/imports/{import_id})',
    errors: { 404: NOT_FOUND },
    params: investigationParams,
    body: z.strictObject({
      format: z
        .enum(IMPORT_FORMATS)
        .describe(
          'ndjson: one evidence item a line, the fields of POST …/evidence with attachments given as { file_name, content_type, text }; ' +
            'seed: one investigation of the seed format (docs/seed-format.md): its questions, topics, evidence and background documents',
        ),
      size_bytes: z
        .number()
        .int('must be a whole number of bytes')
        .min(1, 'must be at least 1')
        .max(
          IMPORT_LIMITS.maxFileBytes,
          `must be at most ${IMPORT_LIMITS.maxFileBytes} bytes (${IMPORT_LIMITS.maxFileBytes / 2 ** 20} MiB)`,
        ),
    }),
    response: importSchema.extend({ upload: uploadSchema }),
  }),
);

export const importGetRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/investigations/{investigation_id}/imports/{import_id}',
    errors: { 404: NOT_FOUND },
    params: investigationParams.extend({ import_id: uuid }),
    response: importSchema,
  }),
);

// ---- readiness -------------------------------------------------------------------------------

export const ingestionStatusRoute = /* @__PURE__ */ ifUsed(() =>
  defineRoute({
    route: 'GET /api/investigations/{investigation_id}/ingestion',
    errors: { 404: NOT_FOUND },
    params: investigationParams,
    response: z.object({
      investigation_id: uuid,
      items_total: z.number().int().describe('evidence items and background documents'),
      items_ready: z.number().int(),
      items_processing: z.number().int(),
      items_failed: z.number().int(),
      chunks_total: z.number().int(),
      chunks_pending: z.number().int().describe('passages waiting for their embeddings'),
      imports_in_progress: z.number().int(),
      failed: z
        .array(
          z.object({
            evidence_id: uuid.nullable(),
            background_document_id: uuid.nullable(),
            attachment_id: uuid.nullable(),
            source_type: z.enum(SOURCE_TYPES),
            title: z.string(),
            file_name: z.string().nullable(),
            message: z.string(),
          }),
        )
        .describe(`what could not be taken in (the first ${IMPORT_LIMITS.errorsShown}), with why`),
    }),
  }),
);
