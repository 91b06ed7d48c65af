/**
 * The service's closed word lists that have no richer home in domain/ (the analysis lifecycle, types,
 * feedback and confidence keep theirs beside their rules). Each list is written once: the kysely schema
 * derives its column types from it, the contracts use `z.enum(LIST)`, a new migration's CHECK is built
 * from it, and test/db/vocabulary.test.ts fails when a CHECK in the database says otherwise.
 *
 * Pure: no I/O, no clock, no environment.
 */

export const ROLES = ['admin', 'investigator'] as const;
export type Role = (typeof ROLES)[number];

/** Where a text chunk or retrieval record comes from: an evidence item's content, its attachment, a background document. */
export const SOURCE_TYPES = ['content', 'attachment', 'background_doc'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/**
 * How an analysis's citations held up against the evidence markers it was given (analysis/answer.ts; no
 * CHECK in the database). valid: every finding cites markers issued in the call only; citations_removed:
 * some citations named no issued marker (a chunk id, a label typed by a user or made up by the model)
 * and were dropped; uncited_findings: after that, at least one finding cites nothing.
 */
export const VALIDATION_STATUSES = ['valid', 'citations_removed', 'uncited_findings'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

/**
 * A file's way in (an attachment or a background document, as stored): its presigned upload not yet arrived,
 * arrived and waiting for text extraction, extracted, or extraction failed (migration 0014).
 */
export const EXTRACTION_STATUSES = ['awaiting_upload', 'pending', 'extracted', 'error'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];

/**
 * A file's state as the API reports it: the stored one, and `upload_missing` for an upload that never arrived
 * (still awaiting_upload after its upload deadline: ingestion/file-state.ts).
 */
export const FILE_STATES = [...EXTRACTION_STATUSES, 'upload_missing'] as const;
export type FileState = (typeof FILE_STATES)[number];

/** A bulk import's way (migration 0014): the file not yet uploaded, queued, being processed, done, or refused as a whole. */
export const IMPORT_STATUSES = ['awaiting_upload', 'queued', 'processing', 'complete', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** What a bulk import file holds: one evidence item a line (NDJSON), or one investigation of the seed format. */
export const IMPORT_FORMATS = ['ndjson', 'seed'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Embedding of one source. */
export const EMBEDDING_STATUSES = ['pending', 'embedded', 'error'] as const;
export type EmbeddingStatus = (typeof EMBEDDING_STATUSES)[number];

/** What GET …/quality-status reports of the checks: a view of the status and the last check's error (analysis/quality.ts). */
export const QUALITY_STATES = ['not_started', 'checking', 'verified', 'failed', 'unavailable'] as const;
export type QualityState = (typeof QUALITY_STATES)[number];

export const AI_PURPOSES = ['analysis', 'quality', 'judge', 'embedding'] as const;
export type AiPurpose = (typeof AI_PURPOSES)[number];

/** 'timed_out': an attempt aborted at its attempt timeout (ai/timeouts.ts; migration 0007). */
export const AI_OUTCOMES = ['ok', 'throttled', 'error', 'shed', 'timed_out'] as const;
export type AiOutcome = (typeof AI_OUTCOMES)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const JOB_TRIGGERS = ['schedule', 'http'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];

export const JOB_STATUSES = ['running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
