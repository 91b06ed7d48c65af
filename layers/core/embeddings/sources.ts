/**
 * Data access for embedding: the status rows (embedding_sources) that are the sweeper's work list,
 * the text of each source, and its chunks (text_chunks).
 *
 * Claiming without holding a transaction. A sweeper claims ONE row at a time with a lease: a single
 * UPDATE whose sub-select takes the row `FOR UPDATE SKIP LOCKED` and moves its `updated_at` into the
 * future (now + lease, truncated to milliseconds). A row is claimable when it is pending, or in error
 * below the attempt cap, and its `updated_at` is not in the future, so a second sweeper skips rows
 * another one holds. Nothing stays locked while the model is called (the AI gateway writes its
 * ledger and quota rows through the same database, and PGlite has a single connection). The lease
 * value is the claim's token: every later write to the row is conditional on `updated_at` still being
 * that value, so a row re-queued (enqueueEmbedding) while it was being embedded is not overwritten with
 * chunks of the old text. A crashed sweeper's rows become claimable again when the lease runs out.
 * (A dedicated `claimed_until` column would say this more plainly; see the sweeper's notes.)
 *
 * Which text is embedded:
 * - content: evidence_items.content;
 * - attachment: attachments.extracted_text (null = nothing extracted: embedded with zero chunks);
 * - background_doc: background_documents.extracted_text, whether or not the document is
 *   included_for_ai — inclusion is decided at retrieval time, so toggling it needs no re-embedding.
 *   A document whose text extraction is still pending is left pending (skipped); one whose extraction
 *   failed counts as a failed attempt with the extraction's error as its message.
 * Whoever changes a source's text re-queues it with enqueueEmbedding.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { EMBEDDING_DIMENSIONS } from '#core/db/migrations/0001-domain';
import type { Database, EmbeddingSourcesTable, SourceType } from '#core/db/schema';
import type { TextChunk } from './chunking';

export type EmbeddingSource = Selectable<EmbeddingSourcesTable>;

/** A claimed row; its `updated_at` is the lease (the claim's token). */
export type ClaimedSource = EmbeddingSource;

/** 15 minutes: longer than any sweeper run (the Lambda timeout is 5 minutes), so a live claim never lapses. */
const DEFAULT_LEASE_MS = 15 * 60_000;

const INSERT_BATCH = 50;

// ---- pure helpers ----------------------------------------------------------------------------

/** Whether a row may be picked by a sweep: pending, or in error below the attempt cap. */
export const isRetryable = (source: Pick<EmbeddingSource, 'status' | 'attempts'>, maxAttempts: number): boolean =>
  source.status === 'pending' || (source.status === 'error' && source.attempts < maxAttempts);

/** The pgvector literal of an embedding; refuses a vector of the wrong length or with a non-finite value. */
export const toVectorLiteral = (vector: readonly number[], dimensions: number = EMBEDDING_DIMENSIONS): string => {
  if (!Array.isArray(vector) || vector.length !== dimensions)
    throw new Error(`The embedding has ${Array.isArray(vector) ? vector.length : 'no'} dimensions; ${dimensions} were expected.`);
  if (!vector.every((v) => typeof v === 'number' && Number.isFinite(v)))
    throw new Error('The embedding holds a value that is not a finite number.');
  return `[${vector.join(',')}]`;
};

/** Parses a pgvector literal '[x,y,…]' back into numbers. */
export const fromVectorLiteral = (literal: string): number[] =>
  literal
    .replace(/^\[|\]$/g, '')
    .split(',')
    .filter((v) => v !== '')
    .map(Number);

// ---- the work list ---------------------------------------------------------------------------

export interface SourceRef {
  investigation_id: string;
  source_type: SourceType;
  source_id: string;
}

/**
 * (Re)queues a source for embedding: a new row, or an existing one back to pending with its attempts
 * reset (its text changed, or an operator retries a source that gave up). Its old chunks stay in use
 * until the new ones replace them.
 */
export const enqueueEmbedding = async (db: Kysely<Database>, ref: SourceRef): Promise<EmbeddingSource> =>
  db
    .insertInto('embedding_sources')
    .values({ ...ref, status: 'pending', attempts: 0, error_message: null })
    .onConflict((oc) =>
      oc.columns(['source_type', 'source_id']).doUpdateSet({
        status: 'pending',
        attempts: 0,
        error_message: null,
        updated_at: sql`now()`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();

export interface ClaimOptions {
  maxAttempts: number;
  /** rows this sweep already handled (it tries each at most once) */
  exclude: readonly string[];
  leaseMs?: number;
}

/**
 * Claims the next row to embed: pending rows first, then retryable errors; oldest first in each.
 * Undefined when there is none (or every candidate is held by another sweep).
 */
export const claimNextSource = async (
  db: Kysely<Database>,
  { maxAttempts, exclude, leaseMs = DEFAULT_LEASE_MS }: ClaimOptions,
): Promise<ClaimedSource | undefined> => {
  // `status <> 'embedded'` lets the planner use the partial index embedding_sources_pending_idx
  const claimable = sql<boolean>`status <> 'embedded' and (status = 'pending' or (status = 'error' and attempts < ${maxAttempts})) and updated_at <= now()`;
  return (
    db
      .updateTable('embedding_sources')
      .set({ updated_at: sql`date_trunc('milliseconds', now() + ${leaseMs} * interval '1 millisecond')` })
      .where('id', '=', (eb) => {
        let next = eb.selectFrom('embedding_sources').select('id').where(claimable);
        if (exclude.length > 0) next = next.where('id', 'not in', [...exclude]);
        return next.orderBy(sql`status = 'error'`).orderBy('created_at').orderBy('id').limit(1).forUpdate().skipLocked();
      })
      // checked again on the row itself: under READ COMMITTED another sweep may have claimed it meanwhile
      .where(claimable)
      .returningAll()
      .executeTakeFirst()
  );
};

/** Gives a claimed row back untouched (status and attempts as they were), claimable at once. */
export const releaseSource = async (db: Kysely<Database>, source: ClaimedSource): Promise<void> => {
  await db
    .updateTable('embedding_sources')
    .set({ updated_at: sql`now()` })
    .where('id', '=', source.id)
    .where('updated_at', '=', source.updated_at)
    .execute();
};

/** Deletes the row of a source that no longer exists (its chunks go with it). */
export const removeSource = async (db: Kysely<Database>, source: ClaimedSource): Promise<void> => {
  await db.deleteFrom('embedding_sources').where('id', '=', source.id).where('updated_at', '=', source.updated_at).execute();
};

/**
 * Records a failed attempt: status error, attempts + 1, the error's message. Returns the attempts
 * now recorded, or undefined when the row changed since it was claimed (nothing written).
 */
export const recordFailure = async (db: Kysely<Database>, source: ClaimedSource, message: string): Promise<number | undefined> => {
  const row = await db
    .updateTable('embedding_sources')
    .set({ status: 'error', attempts: sql`attempts + 1`, error_message: message, updated_at: sql`now()` })
    .where('id', '=', source.id)
    .where('updated_at', '=', source.updated_at)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
};

// ---- the text of a source --------------------------------------------------------------------

/** Where a source's chunks point: its evidence item, or its background document. */
export interface ChunkOwner {
  evidence_item_id: string | null;
  background_document_id: string | null;
}

export type SourceText =
  | ({ status: 'ready'; text: string } & ChunkOwner)
  /** the evidence item, attachment or document is gone */
  | { status: 'missing' }
  /** a background document whose text extraction has not finished */
  | { status: 'not_ready'; reason: string }
  /** a background document whose text extraction failed */
  | { status: 'unreadable'; message: string };

export const loadSourceText = async (
  db: Kysely<Database>,
  source: Pick<EmbeddingSource, 'source_type' | 'source_id'>,
): Promise<SourceText> => {
  switch (source.source_type) {
    case 'content': {
      const row = await db.selectFrom('evidence_items').select(['id', 'content']).where('id', '=', source.source_id).executeTakeFirst();
      return row ? { status: 'ready', text: row.content, evidence_item_id: row.id, background_document_id: null } : { status: 'missing' };
    }
    case 'attachment': {
      const row = await db
        .selectFrom('attachments')
        .select(['evidence_item_id', 'extracted_text'])
        .where('id', '=', source.source_id)
        .executeTakeFirst();
      return row
        ? { status: 'ready', text: row.extracted_text ?? '', evidence_item_id: row.evidence_item_id, background_document_id: null }
        : { status: 'missing' };
    }
    case 'background_doc': {
      const row = await db
        .selectFrom('background_documents')
        .select(['id', 'extracted_text', 'extraction_status', 'extraction_error'])
        .where('id', '=', source.source_id)
        .executeTakeFirst();
      if (!row) return { status: 'missing' };
      if (row.extraction_status === 'pending') return { status: 'not_ready', reason: 'text extraction has not finished' };
      if (row.extraction_status === 'error')
        return { status: 'unreadable', message: `Text extraction failed: ${row.extraction_error ?? 'no reason recorded'}` };
      return { status: 'ready', text: row.extracted_text ?? '', evidence_item_id: null, background_document_id: row.id };
    }
  }
};

// ---- chunks ----------------------------------------------------------------------------------

export interface EmbeddedChunk extends Pick<TextChunk, 'index' | 'text' | 'tokenCount'> {
  /** pgvector literal, from toVectorLiteral */
  embedding: string;
}

/**
 * Replaces the source's chunks with these and marks it embedded (attempts + 1, no error), in one
 * transaction. False, with nothing written, when the row changed since it was claimed.
 */
export const storeChunks = (
  db: Kysely<Database>,
  source: ClaimedSource,
  owner: ChunkOwner,
  chunks: readonly EmbeddedChunk[],
): Promise<boolean> =>
  db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('embedding_sources')
      .set({ status: 'embedded', attempts: sql`attempts + 1`, error_message: null, updated_at: sql`now()` })
      .where('id', '=', source.id)
      .where('updated_at', '=', source.updated_at)
      .executeTakeFirst();
    if (marked.numUpdatedRows === 0n) return false;
    await trx.deleteFrom('text_chunks').where('embedding_source_id', '=', source.id).execute();
    for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
      await trx
        .insertInto('text_chunks')
        .values(
          chunks.slice(i, i + INSERT_BATCH).map((chunk) => ({
            investigation_id: source.investigation_id,
            embedding_source_id: source.id,
            source_type: source.source_type,
            evidence_item_id: owner.evidence_item_id,
            background_document_id: owner.background_document_id,
            chunk_index: chunk.index,
            text: chunk.text,
            token_count: chunk.tokenCount,
            embedding: sql<string>`${chunk.embedding}::vector`,
          })),
        )
        .execute();
    }
    return true;
  });

// ---- counts for the report -------------------------------------------------------------------

export interface BacklogCounts {
  /** not embedded, row created before `cutoff` */
  pendingOlderThanCutoff: number;
  /** pending, or error below the cap */
  remaining: number;
  /** error at or above the cap */
  givenUp: number;
}

export const countBacklog = async (
  db: Kysely<Database>,
  { cutoff, maxAttempts }: { cutoff: Date; maxAttempts: number },
): Promise<BacklogCounts> => {
  const row = await db
    .selectFrom('embedding_sources')
    .select([
      sql<number>`count(*) filter (where created_at < ${cutoff})::int`.as('old'),
      sql<number>`count(*) filter (where status = 'pending' or attempts < ${maxAttempts})::int`.as('remaining'),
      sql<number>`count(*) filter (where status = 'error' and attempts >= ${maxAttempts})::int`.as('given_up'),
    ])
    .where('status', '<>', 'embedded')
    .executeTakeFirstOrThrow();
  return { pendingOlderThanCutoff: row.old, remaining: row.remaining, givenUp: row.given_up };
};
