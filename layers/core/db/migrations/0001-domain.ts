/**
 * The whole domain in one first migration. Later changes get their own numbered migration; a
 * deployed migration is never edited. Statements run one at a time (PGlite's extended protocol
 * takes one statement per query).
 */
import { sql, type Kysely } from 'kysely';

/** Dimensions of Titan Text Embeddings V2 at its default setting. */
export const EMBEDDING_DIMENSIONS = 1024;

const up = [
  `create extension if not exists vector`,

  `create table organizations (
    id uuid primary key default gen_random_uuid(),
    name text not null,
    created_at timestamptz not null default now()
  )`,

  `create table users (
    id uuid primary key default gen_random_uuid(),
    organization_id uuid not null references organizations(id) on delete cascade,
    idp_subject text not null unique,
    email text not null unique,
    display_name text not null,
    role text not null check (role in ('admin', 'investigator')),
    created_at timestamptz not null default now()
  )`,
  `create index users_organization_idx on users (organization_id)`,

  `create table investigations (
    id uuid primary key default gen_random_uuid(),
    organization_id uuid not null references organizations(id) on delete cascade,
    title text not null,
    description text not null default '',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index investigations_organization_idx on investigations (organization_id, created_at desc)`,

  `create table questions (
    id uuid primary key default gen_random_uuid(),
    investigation_id uuid not null references investigations(id) on delete cascade,
    text text not null,
    position int not null default 0,
    created_at timestamptz not null default now()
  )`,
  `create index questions_investigation_idx on questions (investigation_id, position)`,

  `create table topics (
    id uuid primary key default gen_random_uuid(),
    investigation_id uuid not null references investigations(id) on delete cascade,
    title text not null,
    description text not null default '',
    position int not null default 0,
    created_at timestamptz not null default now()
  )`,
  `create index topics_investigation_idx on topics (investigation_id, position)`,

  `create table evidence_items (
    id uuid primary key default gen_random_uuid(),
    investigation_id uuid not null references investigations(id) on delete cascade,
    title text not null,
    content text not null default '',
    collected_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create index evidence_items_investigation_idx on evidence_items (investigation_id)`,

  `create table evidence_question_links (
    evidence_item_id uuid not null references evidence_items(id) on delete cascade,
    question_id uuid not null references questions(id) on delete cascade,
    primary key (question_id, evidence_item_id)
  )`,

  `create table attachments (
    id uuid primary key default gen_random_uuid(),
    evidence_item_id uuid not null references evidence_items(id) on delete cascade,
    file_name text not null,
    content_type text not null,
    size_bytes bigint not null default 0,
    storage_key text not null unique,
    extracted_text text,
    created_at timestamptz not null default now()
  )`,
  `create index attachments_evidence_item_idx on attachments (evidence_item_id)`,

  `create table background_documents (
    id uuid primary key default gen_random_uuid(),
    investigation_id uuid not null references investigations(id) on delete cascade,
    title text not null,
    file_name text not null,
    content_type text not null,
    size_bytes bigint not null default 0,
    storage_key text not null unique,
    extracted_text text,
    extraction_status text not null default 'pending' check (extraction_status in ('pending', 'extracted', 'error')),
    extraction_error text,
    included_for_ai boolean not null default true,
    created_at timestamptz not null default now()
  )`,
  `create index background_documents_investigation_idx on background_documents (investigation_id)`,

  // One row per text source (evidence content, attachment, background document): the sweeper's work list.
  `create table embedding_sources (
    id uuid primary key default gen_random_uuid(),
    investigation_id uuid not null references investigations(id) on delete cascade,
    source_type text not null check (source_type in ('content', 'attachment', 'background_doc')),
    source_id uuid not null,
    status text not null default 'pending' check (status in ('pending', 'embedded', 'error')),
    attempts int not null default 0,
    error_message text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (source_type, source_id)
  )`,
  `create index embedding_sources_pending_idx on embedding_sources (status, created_at) where status <> 'embedded'`,

  `create table text_chunks (
    id uuid primary key default gen_random_uuid(),
    investigation_id uuid not null references investigations(id) on delete cascade,
    embedding_source_id uuid not null references embedding_sources(id) on delete cascade,
    source_type text not null check (source_type in ('content', 'attachment', 'background_doc')),
    evidence_item_id uuid references evidence_items(id) on delete cascade,
    background_document_id uuid references background_documents(id) on delete cascade,
    chunk_index int not null,
    text text not null,
    token_count int not null default 0,
    embedding vector(${EMBEDDING_DIMENSIONS}),
    created_at timestamptz not null default now(),
    unique (embedding_source_id, chunk_index),
    check ((evidence_item_id is null) <> (background_document_id is null))
  )`,
  `create index text_chunks_investigation_idx on text_chunks (investigation_id)`,
  `create index text_chunks_embedding_idx on text_chunks using hnsw (embedding vector_cosine_ops)`,

  `create table prompt_templates (
    id uuid primary key default gen_random_uuid(),
    prompt_type text not null,
    version int not null check (version > 0),
    system_prompt text not null,
    user_prompt_template text not null,
    is_active boolean not null default true,
    restored_from_version int,
    created_by uuid references users(id) on delete set null,
    created_at timestamptz not null default now(),
    unique (prompt_type, version)
  )`,

  `create table analyses (
    id uuid primary key default gen_random_uuid(),
    investigation_id uuid not null references investigations(id) on delete cascade,
    analysis_type text not null check (analysis_type in ('question', 'topic', 'summary', 'gap', 'error_check')),
    question_id uuid references questions(id) on delete set null,
    topic_id uuid references topics(id) on delete set null,
    requested_by uuid references users(id) on delete set null,
    regenerated_from uuid references analyses(id) on delete set null,
    regeneration_reason text,
    regeneration_direction text,
    generation_status text not null default 'queued' check (generation_status in
      ('queued', 'generating', 'complete', 'failed', 'checking', 'verified', 'quality_unavailable')),
    error_message text,
    prompt_type text,
    prompt_version int,
    model_id text,
    result jsonb,
    token_usage jsonb,
    evidence_coverage jsonb,
    retrieval_quality jsonb,
    validation_status text,
    faithfulness_score double precision check (faithfulness_score between 0 and 1),
    coverage_score double precision check (coverage_score between 0 and 1),
    quality_confidence text check (quality_confidence in ('established', 'probable', 'possible', 'insufficient')),
    quality_error text,
    quality_checked_at timestamptz,
    feedback_status text check (feedback_status in ('accepted', 'rejected', 'needs_revision', 'regenerated', 'edited', 'viewed')),
    generated_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index analyses_investigation_idx on analyses (investigation_id, created_at desc)`,
  `create index analyses_in_flight_idx on analyses (generation_status) where generation_status in ('queued', 'generating', 'checking')`,

  // Gates are per analysis and per investigator, so one reviewer's progress does not unlock another's.
  `create table analysis_engagements (
    analysis_id uuid not null references analyses(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    detail_reviewed_at timestamptz,
    citation_checked_at timestamptz,
    primary key (analysis_id, user_id)
  )`,

  `create table analysis_revisions (
    id uuid primary key default gen_random_uuid(),
    analysis_id uuid not null references analyses(id) on delete cascade,
    author_id uuid references users(id) on delete set null,
    content jsonb not null,
    created_at timestamptz not null default now()
  )`,
  `create index analysis_revisions_analysis_idx on analysis_revisions (analysis_id, created_at)`,

  `create table retrieval_records (
    analysis_id uuid not null references analyses(id) on delete cascade,
    rank int not null,
    chunk_id uuid references text_chunks(id) on delete set null,
    source_type text not null check (source_type in ('content', 'attachment', 'background_doc')),
    evidence_item_id uuid references evidence_items(id) on delete set null,
    background_document_id uuid references background_documents(id) on delete set null,
    similarity double precision not null,
    included boolean not null,
    exclusion_reason text,
    primary key (analysis_id, rank),
    check (included or exclusion_reason is not null)
  )`,

  `create table feedback (
    id uuid primary key default gen_random_uuid(),
    analysis_id uuid not null references analyses(id) on delete cascade,
    user_id uuid references users(id) on delete set null,
    action text not null check (action in ('agree', 'disagree', 'unsure', 'regenerate', 'edit', 'view')),
    status text not null check (status in ('accepted', 'rejected', 'needs_revision', 'regenerated', 'edited', 'viewed')),
    reason text,
    direction text,
    request_id text unique,
    created_at timestamptz not null default now()
  )`,
  `create index feedback_analysis_idx on feedback (analysis_id, created_at)`,
  `create index feedback_created_idx on feedback (created_at)`,

  `create table audit_log (
    id bigserial primary key,
    action text not null,
    outcome text not null check (outcome in ('success', 'failure')),
    actor_user_id uuid references users(id) on delete set null,
    actor_address text,
    organization_id uuid references organizations(id) on delete set null,
    target text,
    detail jsonb,
    created_at timestamptz not null default now()
  )`,
  `create index audit_log_action_idx on audit_log (action, created_at desc)`,

  // Where an audit row that could not be written is remembered (best effort), for audit-health.
  `create table audit_failures (
    id bigserial primary key,
    action text not null,
    error_message text not null,
    created_at timestamptz not null default now()
  )`,
  `create index audit_failures_action_idx on audit_failures (action, created_at desc)`,

  // The AI call ledger: usage counts, token usage, and the shared throttle record the shedder reads.
  `create table ai_calls (
    id bigserial primary key,
    purpose text not null check (purpose in ('analysis', 'quality', 'judge', 'embedding')),
    region text not null,
    model_id text not null,
    outcome text not null check (outcome in ('ok', 'throttled', 'error', 'shed')),
    error_name text,
    input_tokens int not null default 0,
    output_tokens int not null default 0,
    latency_ms int not null default 0,
    user_id uuid references users(id) on delete set null,
    analysis_id uuid references analyses(id) on delete set null,
    created_at timestamptz not null default now()
  )`,
  `create index ai_calls_outcome_idx on ai_calls (outcome, created_at)`,
  `create index ai_calls_region_idx on ai_calls (region, created_at)`,
  `create index ai_calls_user_idx on ai_calls (user_id)`,

  `create table job_runs (
    id uuid primary key default gen_random_uuid(),
    job text not null,
    trigger text not null check (trigger in ('schedule', 'http')),
    status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
    report jsonb,
    error_message text,
    started_at timestamptz not null default now(),
    finished_at timestamptz
  )`,
  `create index job_runs_job_idx on job_runs (job, started_at desc)`,

  // Fixed-window counters shared by every instance, for the API rate limiter.
  `create table rate_limit_counters (
    key text not null,
    window_start timestamptz not null,
    count int not null default 0,
    primary key (key, window_start)
  )`,

  `create table payment_events (
    event_id text primary key,
    event_type text not null,
    amount_cents bigint not null default 0,
    currency text,
    payload jsonb not null,
    received_at timestamptz not null default now()
  )`,

  `create table milestones (
    key text primary key,
    reached_at timestamptz not null default now(),
    detail jsonb
  )`,
];

export const migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    const tables = [
      'milestones',
      'payment_events',
      'rate_limit_counters',
      'job_runs',
      'ai_calls',
      'audit_failures',
      'audit_log',
      'feedback',
      'retrieval_records',
      'analysis_revisions',
      'analysis_engagements',
      'analyses',
      'prompt_templates',
      'text_chunks',
      'embedding_sources',
      'background_documents',
      'attachments',
      'evidence_question_links',
      'evidence_items',
      'topics',
      'questions',
      'investigations',
      'users',
      'organizations',
    ];
    for (const table of tables) await sql.raw(`drop table if exists ${table}`).execute(db);
  },
};
