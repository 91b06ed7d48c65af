/**
 * Data access for embedding sources (embedding_sources): one status row per text — an evidence item's content, an
 * attachment's or a background document's extracted text — from which an item's readiness is read
 * (ingestion/readiness.ts) and which the sweeper's report counts.
 *
 * Every text is written as unembedded chunks with its row set pending (chunk-store.ts writeSourceChunks); the
 * embedding work (embedding-work.ts) embeds the chunks, then settles the row: embedded once none of its chunks
 * waits, error (attempts + 1, the model's message) when the model refuses one of its chunks. Rows written without
 * chunks (before migration 0014, or by the seed loader) are pending with no chunk at all: the work first
 * materialises them, loading their text and writing it as chunks.
 *
 * A row is changed only with the row locked first and its chunks read after, in a later statement (READ COMMITTED
 * gives each statement a fresh snapshot): a writer replacing a source's text locks the row before it replaces the
 * chunks, so a settle that waited for it sees the new chunks, never a stale "nothing waits".
 *
 * Which text is embedded:
 * - content: evidence_items.content;
 * - attachment: attachments.extracted_text once extracted (null: nothing extracted, no chunk);
 * - background_doc: background_documents.extracted_text, whether or not the document is included_for_ai —
 *   inclusion is decided at retrieval time, so toggling it needs no re-embedding.
 * A file not uploaded or not extracted yet is left pending; one whose extraction failed counts as a failed attempt
 * with the extraction's error as its message.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { EMBEDDING_DIMENSIONS } from '#core/db/migrations/0001-domain';
import type { Database, EmbeddingSourcesTable } from '#core/db/schema';
import { writeSourceChunks } from './chunk-store';

type EmbeddingSource = Selectable<EmbeddingSourcesTable>;

// ---- vectors ---------------------------------------------------------------------------------

/** Number.isFinite held at module scope: a global read per element is slow where the global object is a vm context's (jest's). */
const isFiniteNumber = Number.isFinite as (value: unknown) => value is number;

/** The pgvector literal of an embedding; refuses a vector of the wrong length or with a non-finite value. */
export const toVectorLiteral = (vector: readonly number[], dimensions: number = EMBEDDING_DIMENSIONS): string => {
  if (!Array.isArray(vector) || vector.length !== dimensions)
    throw new Error(`The embedding has ${Array.isArray(vector) ? vector.length : 'no'} dimensions; ${dimensions} were expected.`);
  if (!vector.every(isFiniteNumber)) throw new Error('The embedding holds a value that is not a finite number.');
  return `[${vector.join(',')}]`;
};

/** Parses a pgvector literal '[x,y,…]' back into numbers. */
export const fromVectorLiteral = (literal: string): number[] =>
  literal
    .replace(/^\[|\]$/g, '')
    .split(',')
    .filter((v) => v !== '')
    .map(Number);

// ---- the text of a source --------------------------------------------------------------------

/** Where a source's chunks point: its evidence item, or its background document. */
interface ChunkOwner {
  evidence_item_id: string | null;
  background_document_id: string | null;
}

type SourceText =
  | ({ status: 'ready'; text: string } & ChunkOwner)
  /** the evidence item, attachment or document is gone */
  | { status: 'missing' }
  /** a file not uploaded, or whose text extraction has not finished */
  | { status: 'not_ready'; reason: string }
  /** a file whose text extraction failed */
  | { status: 'unreadable'; message: string };

/** Why a file's text cannot be embedded yet (or at all), or undefined once it is extracted. */
const extractionProblem = (file: { extraction_status: string; extraction_error: string | null }): SourceText | undefined => {
  if (file.extraction_status === 'awaiting_upload') return { status: 'not_ready', reason: 'the file has not been uploaded' };
  if (file.extraction_status === 'pending') return { status: 'not_ready', reason: 'text extraction has not finished' };
  if (file.extraction_status === 'error')
    return { status: 'unreadable', message: `Text extraction failed: ${file.extraction_error ?? 'no reason recorded'}` };
  return undefined;
};

const loadSourceText = async (db: Kysely<Database>, source: Pick<EmbeddingSource, 'source_type' | 'source_id'>): Promise<SourceText> => {
  switch (source.source_type) {
    case 'content': {
      const row = await db.selectFrom('evidence_items').select(['id', 'content']).where('id', '=', source.source_id).executeTakeFirst();
      return row ? { status: 'ready', text: row.content, evidence_item_id: row.id, background_document_id: null } : { status: 'missing' };
    }
    case 'attachment': {
      const row = await db
        .selectFrom('attachments')
        .select(['evidence_item_id', 'extracted_text', 'extraction_status', 'extraction_error'])
        .where('id', '=', source.source_id)
        .executeTakeFirst();
      if (!row) return { status: 'missing' };
      return (
        extractionProblem(row) ?? {
          status: 'ready',
          text: row.extracted_text ?? '',
          evidence_item_id: row.evidence_item_id,
          background_document_id: null,
        }
      );
    }
    case 'background_doc': {
      const row = await db
        .selectFrom('background_documents')
        .select(['id', 'extracted_text', 'extraction_status', 'extraction_error'])
        .where('id', '=', source.source_id)
        .executeTakeFirst();
      if (!row) return { status: 'missing' };
      return (
        extractionProblem(row) ?? {
          status: 'ready',
          text: row.extracted_text ?? '',
          evidence_item_id: null,
          background_document_id: row.id,
        }
      );
    }
  }
};

// ---- materialising rows written without chunks -----------------------------------------------

export interface Materialized {
  /** sources whose text was written as chunks (now pending, or embedded at once: a text without a chunk) */
  written: number;
  /** of those, embedded at once */
  embeddedAtOnce: number;
  /** rows whose source no longer exists, deleted */
  removed: number;
  /** files not uploaded or extracted yet: left pending */
  notReady: string[];
  /** files whose extraction failed: status error, attempts + 1 */
  failed: { id: string; attempts: number }[];
  /** every row looked at (a caller excludes them next time: each is tried once per run) */
  handled: string[];
}

/**
 * Loads the text of up to `limit` rows that are to be embedded (pending, or in error below the attempt cap) but have
 * no chunk at all, and writes it as chunks (chunk-store.ts), in one transaction. The rows are taken `FOR UPDATE SKIP
 * LOCKED`, so two workers never write one source twice.
 */
export const materializeSources = (
  db: Kysely<Database>,
  { maxAttempts, limit, exclude }: { maxAttempts: number; limit: number; exclude: readonly string[] },
): Promise<Materialized> =>
  db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('embedding_sources as s')
      .selectAll('s')
      // `status <> 'embedded'` lets the planner use the partial index embedding_sources_not_embedded_idx
      .where('s.status', '<>', 'embedded')
      .where((eb) => eb.or([eb('s.status', '=', 'pending'), eb('s.attempts', '<', maxAttempts)]))
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('text_chunks as c').select(sql`1`.as('one')).whereRef('c.embedding_source_id', '=', 's.id'))),
      );
    if (exclude.length > 0) query = query.where('s.id', 'not in', [...exclude]);
    const rows = await query.orderBy('s.created_at').orderBy('s.id').limit(limit).forUpdate().skipLocked().execute();

    const result: Materialized = { written: 0, embeddedAtOnce: 0, removed: 0, notReady: [], failed: [], handled: rows.map((r) => r.id) };
    for (const row of rows) {
      const loaded = await loadSourceText(trx, row);
      if (loaded.status === 'missing') {
        await trx.deleteFrom('embedding_sources').where('id', '=', row.id).execute();
        result.removed++;
      } else if (loaded.status === 'not_ready') {
        result.notReady.push(row.id);
      } else if (loaded.status === 'unreadable') {
        const { attempts } = await trx
          .updateTable('embedding_sources')
          .set({ status: 'error', attempts: sql`attempts + 1`, error_message: loaded.message, updated_at: sql`now()` })
          .where('id', '=', row.id)
          .returning('attempts')
          .executeTakeFirstOrThrow();
        result.failed.push({ id: row.id, attempts });
      } else {
        const written = await writeSourceChunks(
          trx,
          {
            investigation_id: row.investigation_id,
            source_type: row.source_type,
            source_id: row.source_id,
            evidence_item_id: loaded.evidence_item_id,
            background_document_id: loaded.background_document_id,
          },
          loaded.text,
        );
        result.written++;
        if (written.chunks === 0) result.embeddedAtOnce++;
      }
    }
    return result;
  });

// ---- settling rows ---------------------------------------------------------------------------

/** Locks the rows (in id order, as every worker does), then runs `then` in the same transaction, after the locks. */
const withSourcesLocked = <T>(db: Kysely<Database>, ids: readonly string[], then: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
  db.transaction().execute(async (trx) => {
    await trx
      .selectFrom('embedding_sources')
      .select('id')
      .where('id', 'in', [...ids])
      .orderBy('id')
      .forUpdate()
      .execute();
    return then(trx);
  });

/** A row with a chunk and none waiting for its vector (a duplicate waits for its representative). */
const nothingWaits = sql<boolean>`exists (select 1 from text_chunks c where c.embedding_source_id = embedding_sources.id)
  and not exists (select 1 from text_chunks c where c.embedding_source_id = embedding_sources.id and c.embedding is null)`;

/**
 * Marks embedded the rows not yet embedded whose chunks all have their vectors: these (after a store), or every such
 * row (the sweeper's backstop: a worker killed between its store and this). Returns the rows marked.
 */
export const settleSources = async (db: Kysely<Database>, ids?: readonly string[]): Promise<string[]> => {
  let candidates = ids ? [...new Set(ids)] : undefined;
  if (!candidates) {
    const rows = await db.selectFrom('embedding_sources').select('id').where('status', '<>', 'embedded').where(nothingWaits).execute();
    candidates = rows.map((r) => r.id);
  }
  if (candidates.length === 0) return [];
  const settled = await withSourcesLocked(db, candidates, (trx) =>
    trx
      .updateTable('embedding_sources')
      .set({ status: 'embedded', error_message: null, updated_at: sql`now()` })
      .where('id', 'in', candidates)
      .where('status', '<>', 'embedded')
      .where(nothingWaits)
      .returning('id')
      .execute(),
  );
  return settled.map((r) => r.id);
};

/**
 * Records that the model refused a chunk of each of these sources: status error, attempts + 1, the model's message
 * — unless the refused chunks are gone (the source's text was written again meanwhile). Returns the attempts now
 * recorded per source.
 */
export const recordRefusals = async (
  db: Kysely<Database>,
  refusals: readonly { sourceId: string; chunkIds: readonly string[]; message: string }[],
): Promise<{ sourceId: string; attempts: number }[]> => {
  if (refusals.length === 0) return [];
  return withSourcesLocked(
    db,
    refusals.map((r) => r.sourceId),
    async (trx) => {
      const recorded: { sourceId: string; attempts: number }[] = [];
      for (const { sourceId, chunkIds, message } of refusals) {
        const row = await trx
          .updateTable('embedding_sources')
          .set({ status: 'error', attempts: sql`attempts + 1`, error_message: message, updated_at: sql`now()` })
          .where('id', '=', sourceId)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('text_chunks')
                .select(sql`1`.as('one'))
                .where('text_chunks.id', 'in', [...chunkIds])
                .whereRef('text_chunks.embedding_source_id', '=', 'embedding_sources.id'),
            ),
          )
          .returning('attempts')
          .executeTakeFirst();
        if (row) recorded.push({ sourceId, attempts: row.attempts });
      }
      return recorded;
    },
  );
};

/** After a change of embedding model, the rows whose chunks lost their vectors (chunk-claims.ts resetOtherModel) wait again. */
export const markPending = async (db: Kysely<Database>, ids: readonly string[]): Promise<void> => {
  if (ids.length === 0) return;
  await db
    .updateTable('embedding_sources')
    .set({ status: 'pending', updated_at: sql`now()` })
    .where('id', 'in', [...ids])
    .where('status', '=', 'embedded')
    .execute();
};

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
