/**
 * Evidence comes in through the API (issue 26): investigators create investigations, questions, topics, evidence
 * items, attachments and background documents; files arrive by presigned upload and are extracted when the object
 * lands; a whole matter arrives as a bulk import; every source written is queued for embedding at once.
 *
 * - investigations, evidence_items, background_documents: who created them; evidence items an `updated_at` and an
 *   idempotency key (unique per investigation) with the fingerprint of the request that used it, so a repeated key
 *   answers the first result and a reused key with another body is refused.
 * - attachments and background documents share one way in (`extraction_status`): awaiting_upload (a presigned
 *   upload issued, due by `upload_deadline`), pending (the object arrived, extraction queued), extracted, error;
 *   `extraction_attempts` counts tries so a file that crashes its worker is given up, not retried for ever; `pages`
 *   is a PDF's page count. Existing attachments were loaded with their text: extracted.
 * - embedding_sources: the evidence item or background document the source belongs to (so readiness is counted per
 *   item, and deleting the item takes its sources and chunks with it).
 * - text_chunks are written when the text is (chunked at ingestion) and embedded afterwards, many per model request:
 *   `embedding` null until then; `embedding_model` the model that embedded it (retrieval never mixes two);
 *   `embed_lease_until` a worker's claim; `char_start`/`char_end` its place in the source's normalised text; `page`
 *   the PDF page it starts on; `duplicate_of` the representative of its near-duplicate group (null: it is one) and
 *   `lsh_bands` the keys that find its near-duplicates (embeddings/near-duplicates.ts). Partial indexes find the
 *   work: chunks to embed, a representative's duplicates.
 * - imports and import_errors: bulk imports, resumable (lines and bytes done) with per-line errors.
 */
import { sql, type Kysely } from 'kysely';
import { EXTRACTION_STATUSES, IMPORT_FORMATS, IMPORT_STATUSES } from '#core/domain/vocabulary';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

const up = [
  `alter table investigations add column created_by uuid references users(id) on delete set null`,

  `alter table evidence_items
     add column created_by uuid references users(id) on delete set null,
     add column updated_at timestamptz not null default now(),
     add column idempotency_key text,
     add column request_fingerprint text`,
  `create unique index evidence_items_idempotency_idx on evidence_items (investigation_id, idempotency_key) where idempotency_key is not null`,

  // attachments: loaded with their text until now, so extracted; new ones start awaiting their upload
  `alter table attachments
     add column extraction_status text not null default 'extracted' check (extraction_status in (${list(EXTRACTION_STATUSES)})),
     add column extraction_error text,
     add column extraction_attempts int not null default 0,
     add column upload_deadline timestamptz,
     add column uploaded_at timestamptz,
     add column pages int`,
  `alter table attachments alter column extraction_status set default 'awaiting_upload'`,
  `create index attachments_not_extracted_idx on attachments (investigation_id) where extraction_status <> 'extracted'`,

  `alter table background_documents drop constraint background_documents_extraction_status_check`,
  `alter table background_documents add constraint background_documents_extraction_status_check
     check (extraction_status in (${list(EXTRACTION_STATUSES)}))`,
  `alter table background_documents
     add column created_by uuid references users(id) on delete set null,
     add column updated_at timestamptz not null default now(),
     add column extraction_attempts int not null default 0,
     add column upload_deadline timestamptz,
     add column uploaded_at timestamptz,
     add column pages int`,
  `create index background_documents_not_extracted_idx on background_documents (investigation_id) where extraction_status <> 'extracted'`,

  `alter table embedding_sources
     add column evidence_item_id uuid references evidence_items(id) on delete cascade,
     add column background_document_id uuid references background_documents(id) on delete cascade`,
  `update embedding_sources s set evidence_item_id = s.source_id where s.source_type = 'content'`,
  `update embedding_sources s set evidence_item_id = a.evidence_item_id from attachments a where s.source_type = 'attachment' and a.id = s.source_id`,
  `update embedding_sources s set background_document_id = s.source_id where s.source_type = 'background_doc'`,
  `create index embedding_sources_not_embedded_idx on embedding_sources (investigation_id) where status <> 'embedded'`,

  `alter table text_chunks
     add column embedding_model text,
     add column embed_lease_until timestamptz,
     add column char_start int,
     add column char_end int,
     add column page int,
     add column duplicate_of uuid,
     add column lsh_bands int[]`,
  // the chunks embedded until now were embedded by the only model the service used (Titan Text Embeddings V2)
  `update text_chunks set embedding_model = 'amazon.titan-embed-text-v2:0' where embedding is not null`,
  `create index text_chunks_to_embed_idx on text_chunks (created_at) where embedding is null and duplicate_of is null`,
  `create index text_chunks_duplicate_of_idx on text_chunks (duplicate_of) where duplicate_of is not null`,
  `create index text_chunks_lsh_idx on text_chunks using gin (lsh_bands)`,

  `create table imports (
    id uuid primary key default gen_random_uuid(),
    investigation_id uuid not null references investigations(id) on delete cascade,
    format text not null check (format in (${list(IMPORT_FORMATS)})),
    size_bytes bigint not null,
    storage_key text not null unique,
    status text not null default 'awaiting_upload' check (status in (${list(IMPORT_STATUSES)})),
    upload_deadline timestamptz not null,
    lines_total int,
    lines_done int not null default 0,
    lines_failed int not null default 0,
    bytes_done bigint not null default 0,
    error_message text,
    claimed_until timestamptz,
    created_by uuid references users(id) on delete set null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    finished_at timestamptz
  )`,
  `create index imports_investigation_idx on imports (investigation_id, created_at desc)`,
  `create table import_errors (
    import_id uuid not null references imports(id) on delete cascade,
    line int not null,
    field text not null,
    message text not null,
    primary key (import_id, line, field)
  )`,
];

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const statement of [
      'drop table import_errors',
      'drop table imports',
      'drop index text_chunks_lsh_idx',
      'drop index text_chunks_duplicate_of_idx',
      'drop index text_chunks_to_embed_idx',
      `alter table text_chunks drop column embedding_model, drop column embed_lease_until, drop column char_start,
         drop column char_end, drop column page, drop column duplicate_of, drop column lsh_bands`,
      'drop index embedding_sources_not_embedded_idx',
      'alter table embedding_sources drop column evidence_item_id, drop column background_document_id',
      'drop index background_documents_not_extracted_idx',
      `alter table background_documents drop column created_by, drop column updated_at, drop column extraction_attempts,
         drop column upload_deadline, drop column uploaded_at, drop column pages`,
      'alter table background_documents drop constraint background_documents_extraction_status_check',
      `alter table background_documents add constraint background_documents_extraction_status_check
         check (extraction_status in ('pending', 'extracted', 'error'))`,
      'drop index attachments_not_extracted_idx',
      `alter table attachments drop column extraction_status, drop column extraction_error, drop column extraction_attempts,
         drop column upload_deadline, drop column uploaded_at, drop column pages`,
      'drop index evidence_items_idempotency_idx',
      'alter table evidence_items drop column created_by, drop column updated_at, drop column idempotency_key, drop column request_fingerprint',
      'alter table investigations drop column created_by',
    ])
      await sql.raw(statement).execute(db);
  },
};
