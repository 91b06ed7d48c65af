/**
 * Typed view of the database (kysely). Mirrors the migrations in ./migrations; a test compares the
 * two so they cannot drift apart. Closed word lists come from domain/ (test/db/vocabulary.test.ts
 * compares them with the database's CHECK constraints).
 */
import type { ColumnType, Generated } from 'kysely';
import type { AnalysisType } from '#core/domain/analysis-types';
import type { QualityConfidence } from '#core/domain/confidence';
import type { FeedbackAction, FeedbackStatus } from '#core/domain/feedback';
import type { GenerationStatus } from '#core/domain/generation-status';
import type {
  AiOutcome,
  AiPurpose,
  AuditOutcome,
  EmbeddingStatus,
  ExtractionStatus,
  ImportFormat,
  ImportStatus,
  JobStatus,
  JobTrigger,
  Role,
  SourceType,
  ValidationStatus,
} from '#core/domain/vocabulary';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json<T = unknown> = ColumnType<T, string, string>;

/** analyses.waiting_for_evidence: since when the analysis waits, and the investigation's items ready of all */
export interface EvidenceWait {
  since: string;
  ready: number;
  total: number;
}

/** 0020: analyses.quality_claims, the faithfulness check's verdict on one claim (analysis/quality.ts claimVerdicts) */
export interface ClaimVerdict {
  statement: string;
  supported: boolean;
  /** the passages the check found it supported by, as chunk ids (the call's labels translated back) */
  chunk_ids: string[];
  /** what part of the analysis it reviews: a finding (by index), the summary, or none it could be matched to */
  part: 'finding' | 'summary' | 'unmatched';
  finding_index: number | null;
}

/** 0020: analyses.coverage_aspects, one aspect of the question or topic as the coverage check saw it */
export interface AspectVerdict {
  aspect: string;
  addressed: boolean;
  chunk_ids: string[];
}

export type { AnalysisType } from '#core/domain/analysis-types';
export type { FeedbackAction, FeedbackStatus } from '#core/domain/feedback';
export type { GenerationStatus } from '#core/domain/generation-status';
export type { AiOutcome, AiPurpose, Role, SourceType } from '#core/domain/vocabulary';

interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  created_at: CreatedAt;
}

interface UsersTable {
  id: Generated<string>;
  /** null for administrators: the service's operators belong to no organization (investigators always to one) */
  organization_id: string | null;
  idp_subject: string;
  email: string;
  display_name: string;
  role: Role;
  created_at: CreatedAt;
}

interface InvestigationsTable {
  id: Generated<string>;
  organization_id: string;
  title: string;
  description: Generated<string>;
  /** maintained by triggers (migration 0004): evidence items, those with non-blank content, their attachments */
  evidence_count: ColumnType<number, never, never>;
  content_evidence_count: ColumnType<number, never, never>;
  attachment_count: ColumnType<number, never, never>;
  /** maintained by triggers (migration 0013): background documents, those included for the AI */
  background_document_count: ColumnType<number, never, never>;
  background_included_count: ColumnType<number, never, never>;
  /** 0014: the investigator who created it through the API (null: loaded by an operator) */
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

interface QuestionsTable {
  id: Generated<string>;
  investigation_id: string;
  text: string;
  position: Generated<number>;
  /** maintained by triggers (migration 0013): links of evidence items of the question's own investigation */
  linked_evidence_count: ColumnType<number, never, never>;
  created_at: CreatedAt;
}

interface TopicsTable {
  id: Generated<string>;
  investigation_id: string;
  title: string;
  description: Generated<string>;
  position: Generated<number>;
  created_at: CreatedAt;
}

interface EvidenceItemsTable {
  id: Generated<string>;
  investigation_id: string;
  title: string;
  content: Generated<string>;
  collected_at: Timestamp | null;
  /** 0014 */
  created_by: string | null;
  updated_at: Generated<Date>;
  /** the client's key for a create it may retry (unique per investigation), and the fingerprint of the request that used it */
  idempotency_key: string | null;
  request_fingerprint: string | null;
  created_at: CreatedAt;
}

interface EvidenceQuestionLinksTable {
  evidence_item_id: string;
  question_id: string;
  /** set by a trigger (migration 0013): the evidence item and the question belong to the same investigation */
  same_investigation: ColumnType<boolean, never, never>;
}

interface AttachmentsTable {
  id: Generated<string>;
  evidence_item_id: string;
  /** filled from the evidence item by a trigger (migration 0004) */
  investigation_id: ColumnType<string, never, never>;
  file_name: string;
  content_type: string;
  size_bytes: ColumnType<string | number, number | undefined, number>;
  storage_key: string;
  extracted_text: string | null;
  /** 0014: the file's way in (awaiting its upload until upload_deadline, then extraction) */
  extraction_status: Generated<ExtractionStatus>;
  extraction_error: string | null;
  extraction_attempts: Generated<number>;
  upload_deadline: Timestamp | null;
  uploaded_at: Timestamp | null;
  pages: number | null;
  created_at: CreatedAt;
}

interface BackgroundDocumentsTable {
  id: Generated<string>;
  investigation_id: string;
  title: string;
  file_name: string;
  content_type: string;
  size_bytes: ColumnType<string | number, number | undefined, number>;
  storage_key: string;
  extracted_text: string | null;
  extraction_status: Generated<ExtractionStatus>;
  extraction_error: string | null;
  included_for_ai: Generated<boolean>;
  /** 0014 */
  extraction_attempts: Generated<number>;
  upload_deadline: Timestamp | null;
  uploaded_at: Timestamp | null;
  pages: number | null;
  created_by: string | null;
  updated_at: Generated<Date>;
  created_at: CreatedAt;
}

export interface EmbeddingSourcesTable {
  id: Generated<string>;
  investigation_id: string;
  source_type: SourceType;
  source_id: string;
  status: Generated<EmbeddingStatus>;
  attempts: Generated<number>;
  error_message: string | null;
  /** 0014: the evidence item or background document the source belongs to (exactly one) */
  evidence_item_id: string | null;
  background_document_id: string | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

interface TextChunksTable {
  id: Generated<string>;
  investigation_id: string;
  embedding_source_id: string;
  source_type: SourceType;
  evidence_item_id: string | null;
  background_document_id: string | null;
  chunk_index: number;
  text: string;
  token_count: Generated<number>;
  /** pgvector literal '[x,y,…]' on the way in and out; null until embedded */
  embedding: string | null;
  /** 0014: the model that embedded it (retrieval searches one model's vectors only) */
  embedding_model: string | null;
  /** an embedding worker's claim on it */
  embed_lease_until: Timestamp | null;
  /** its place in the source's normalised text (embeddings/chunking.ts), and the PDF page it starts on */
  char_start: number | null;
  char_end: number | null;
  page: number | null;
  /** the representative of its near-duplicate group (null: it is one); a duplicate is never embedded, it takes its representative's vector */
  duplicate_of: string | null;
  /** locality-sensitive hash keys of its text's shingles (embeddings/near-duplicates.ts) */
  lsh_bands: number[] | null;
  /** 0016: its vector is in the HNSW graph (stored vectors are indexed after, a few at a time: embedding-work.ts) */
  indexed: Generated<boolean>;
  /** 0018: placed behind this chunk's graph node instead of in the graph (a version of it: chunk-claims.ts placeVectors) */
  graph_via: string | null;
  /** 0015: when it got its vector (from the model, or copied from its representative); null while it waits */
  embedded_at: Timestamp | null;
  created_at: CreatedAt;
}

interface PromptTemplatesTable {
  id: Generated<string>;
  prompt_type: string;
  version: number;
  system_prompt: string;
  user_prompt_template: string;
  is_active: Generated<boolean>;
  restored_from_version: number | null;
  /** 0021: what the administrator says the version changes; null without one */
  change_note: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: string | null;
  created_at: CreatedAt;
}

interface AnalysesTable {
  id: Generated<string>;
  /** the lease of the worker generating or checking it (analysis/lease.ts); null when no worker holds it */
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** 0009: while the analysis waits for its organization's share of the AI quota, when it is tried next */
  ai_wait_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  investigation_id: string;
  analysis_type: AnalysisType;
  question_id: string | null;
  topic_id: string | null;
  requested_by: string | null;
  regenerated_from: string | null;
  regeneration_reason: string | null;
  regeneration_direction: string | null;
  generation_status: Generated<GenerationStatus>;
  error_message: string | null;
  prompt_type: string | null;
  prompt_version: number | null;
  model_id: string | null;
  result: Json | null;
  token_usage: Json<{ input_tokens: number; output_tokens: number }> | null;
  /** background_documents_considered is absent on analyses generated before it was counted (domain/evidence-coverage.ts) */
  evidence_coverage: Json<{ considered: number; total: number; background_documents_considered?: number }> | null;
  retrieval_quality: Json | null;
  /** 0011: no chunk reached the similarity floor, so the closest few were given to the model (analysis/retrieval.ts) */
  low_relevance: Generated<boolean>;
  /** 0015: while the queued analysis waits for its evidence to be embedded (analysis/evidence-wait.ts); null otherwise */
  waiting_for_evidence: ColumnType<EvidenceWait | null, string | null | undefined, string | null>;
  validation_status: ValidationStatus | null;
  faithfulness_score: number | null;
  coverage_score: number | null;
  quality_confidence: QualityConfidence | null;
  quality_error: string | null;
  quality_checked_at: Timestamp | null;
  /** 0020: the verdicts of the last successful check (null before one) */
  quality_claims: Json<ClaimVerdict[]> | null;
  coverage_aspects: Json<AspectVerdict[]> | null;
  feedback_status: FeedbackStatus | null;
  generated_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

interface AnalysisEngagementsTable {
  analysis_id: string;
  user_id: string;
  detail_reviewed_at: Timestamp | null;
  citation_checked_at: Timestamp | null;
}

interface AnalysisRevisionsTable {
  id: Generated<string>;
  analysis_id: string;
  author_id: string | null;
  content: Json;
  created_at: CreatedAt;
}

interface RetrievalRecordsTable {
  analysis_id: string;
  rank: number;
  chunk_id: string | null;
  source_type: SourceType;
  evidence_item_id: string | null;
  background_document_id: string | null;
  similarity: number;
  included: boolean;
  exclusion_reason: string | null;
}

interface FeedbackTable {
  id: Generated<string>;
  analysis_id: string;
  user_id: string | null;
  action: FeedbackAction;
  status: FeedbackStatus;
  reason: string | null;
  direction: string | null;
  request_id: string | null;
  regenerated_analysis_id: string | null;
  revision_id: string | null;
  created_at: CreatedAt;
}

interface AuditLogTable {
  id: Generated<string>;
  action: string;
  outcome: AuditOutcome;
  actor_user_id: string | null;
  actor_address: string | null;
  organization_id: string | null;
  target: string | null;
  detail: Json | null;
  created_at: CreatedAt;
}

interface AuditFailuresTable {
  id: Generated<string>;
  action: string;
  error_message: string;
  created_at: CreatedAt;
}

interface AiCallsTable {
  id: Generated<string>;
  purpose: AiPurpose;
  region: string;
  model_id: string;
  outcome: AiOutcome;
  error_name: string | null;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  /** input tokens read from Bedrock's prompt cache (billed at a tenth), and written to it (billed at 1.25×); not in input_tokens */
  cache_read_tokens: Generated<number>;
  cache_write_tokens: Generated<number>;
  latency_ms: Generated<number>;
  user_id: string | null;
  analysis_id: string | null;
  created_at: CreatedAt;
}

interface JobRunsTable {
  id: Generated<string>;
  job: string;
  trigger: JobTrigger;
  status: Generated<JobStatus>;
  report: Json | null;
  error_message: string | null;
  started_at: CreatedAt;
  finished_at: Timestamp | null;
}

interface RateLimitCountersTable {
  key: string;
  window_start: Date | string;
  count: Generated<number>;
}

interface PaymentEventsTable {
  event_id: string;
  event_type: string;
  amount_cents: ColumnType<string | number, number | undefined, number>;
  currency: string | null;
  payload: Json;
  received_at: CreatedAt;
}

interface MilestonesTable {
  key: string;
  reached_at: CreatedAt;
  detail: Json | null;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  investigations: InvestigationsTable;
  questions: QuestionsTable;
  topics: TopicsTable;
  evidence_items: EvidenceItemsTable;
  evidence_question_links: EvidenceQuestionLinksTable;
  attachments: AttachmentsTable;
  background_documents: BackgroundDocumentsTable;
  embedding_sources: EmbeddingSourcesTable;
  text_chunks: TextChunksTable;
  prompt_templates: PromptTemplatesTable;
  analyses: AnalysesTable;
  analysis_engagements: AnalysisEngagementsTable;
  analysis_revisions: AnalysisRevisionsTable;
  retrieval_records: RetrievalRecordsTable;
  feedback: FeedbackTable;
  audit_log: AuditLogTable;
  audit_failures: AuditFailuresTable;
  ai_calls: AiCallsTable;
  job_runs: JobRunsTable;
  rate_limit_counters: RateLimitCountersTable;
  payment_events: PaymentEventsTable;
  milestones: MilestonesTable;
  ai_quota_reservations: AiQuotaReservationsTable;
  imports: ImportsTable;
  import_errors: ImportErrorsTable;
}

/** 0014: a bulk import of evidence into an investigation, processed in the background, resumable. */
interface ImportsTable {
  id: Generated<string>;
  investigation_id: string;
  format: ImportFormat;
  size_bytes: ColumnType<string | number, number, number>;
  storage_key: string;
  status: Generated<ImportStatus>;
  upload_deadline: Timestamp;
  lines_total: number | null;
  lines_done: Generated<number>;
  lines_failed: Generated<number>;
  bytes_done: ColumnType<string | number, number | undefined, number>;
  error_message: string | null;
  claimed_until: Timestamp | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
  finished_at: Timestamp | null;
}

interface ImportErrorsTable {
  import_id: string;
  line: number;
  field: string;
  message: string;
}

/**
 * 0002-ai-quota: one row per granted model request, per region (the shared sliding-window quota);
 * 0009: the organization it was for, and waiting marks (granted false) of organizations owed their share.
 */
interface AiQuotaReservationsTable {
  id: Generated<string>;
  region: string;
  reserved_at: ColumnType<Date, Date | string, Date | string>;
  organization_id: string | null;
  granted: Generated<boolean>;
}
