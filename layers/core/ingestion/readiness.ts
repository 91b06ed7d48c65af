/**
 * How far evidence has come in: per item (an evidence item with its attachments, or a background document) and
 * per investigation. An item is
 * - processing while a file of it is awaited (before its upload deadline) or being extracted, or a text of it
 *   waits for its embeddings (pending, or failed below the attempt cap: it is tried again);
 * - failed when, with nothing left in progress, a file could not be extracted, never arrived, or a text gave up
 *   being embedded (the rest of the item is still analysed);
 * - ready otherwise: retrieval finds every passage of it.
 * The queries read only what is not finished (partial indexes of migration 0014), so a settled investigation of
 * 100,000 items costs as little as an empty one.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#core/db/schema';
import type { ExtractionStatus, FileState } from '#core/domain/vocabulary';

/** Attempts after which an embedding source is given up (the sweeper's report counts those: errors_given_up). */
export const EMBEDDING_MAX_ATTEMPTS = 5;

export type Readiness = 'ready' | 'processing' | 'failed';

/** Pure: an item's readiness from whether any part of it is in progress, and whether any part failed. */
export const readinessOf = ({ processing, failed }: { processing: boolean; failed: boolean }): Readiness =>
  processing ? 'processing' : failed ? 'failed' : 'ready';

/** Pure: a file's state as the API reports it; an upload still awaited after its deadline is missing. */
export const fileState = (status: ExtractionStatus, uploadDeadline: Date | string | null, now: Date): FileState =>
  status === 'awaiting_upload' && uploadDeadline !== null && new Date(uploadDeadline).getTime() <= now.getTime()
    ? 'upload_missing'
    : status;

/** Why a file failed, for people. */
export const fileProblem = (state: FileState, error: string | null): string | null =>
  state === 'upload_missing'
    ? 'The file never arrived: its upload URL expired before anything was uploaded. Ask for a new upload URL, or delete it.'
    : state === 'error'
      ? (error ?? 'Its text could not be extracted.')
      : null;

interface ItemProgress {
  /** the evidence item or background document */
  item: string;
  processing: boolean;
  failed: boolean;
}

/**
 * The unfinished parts of an investigation's items (or of one item), one row per item that has any: files not
 * extracted, sources not embedded. Items without a row are ready. `evidenceOnly` leaves background documents out
 * (their files and their sources), so evidence items are counted apart. `investigation` is its id, or an expression
 * of the statement this one is part of (assess: the investigation's row it reads anyway).
 */
const unfinishedParts = (
  investigation: string | RawBuilder<string>,
  { item, evidenceOnly = false }: { item?: string; evidenceOnly?: boolean } = {},
) => {
  const only = (column: string) => (item === undefined ? sql`` : sql`and ${sql.ref(column)} = ${item}`);
  const documents = evidenceOnly
    ? sql``
    : sql`union all
      select id,
             extraction_status = 'pending' or (extraction_status = 'awaiting_upload' and upload_deadline > now()),
             extraction_status = 'error' or (extraction_status = 'awaiting_upload' and upload_deadline <= now())
        from background_documents where investigation_id = ${investigation} and extraction_status <> 'extracted' ${only('id')}`;
  return sql<ItemProgress>`
    select item, bool_or(processing) as processing, bool_or(failed) as failed from (
      select evidence_item_id as item,
             extraction_status = 'pending' or (extraction_status = 'awaiting_upload' and upload_deadline > now()) as processing,
             extraction_status = 'error' or (extraction_status = 'awaiting_upload' and upload_deadline <= now()) as failed
        from attachments where investigation_id = ${investigation} and extraction_status <> 'extracted' ${only('evidence_item_id')}
      ${documents}
      union all
      select ${evidenceOnly ? sql`evidence_item_id` : sql`coalesce(evidence_item_id, background_document_id)`},
             status = 'pending' or attempts < ${EMBEDDING_MAX_ATTEMPTS},
             status = 'error' and attempts >= ${EMBEDDING_MAX_ATTEMPTS}
        from embedding_sources where investigation_id = ${investigation} and status <> 'embedded'
          ${item === undefined ? sql`` : sql`and coalesce(evidence_item_id, background_document_id) = ${item}`}
    ) parts where item is not null group by item`;
};

const unfinished = (db: Kysely<Database>, investigationId: string, options: { item?: string } = {}) =>
  unfinishedParts(investigationId, options).execute(db);

export interface ItemCounts {
  total: number;
  ready: number;
  processing: number;
  failed: number;
}

/** How many items are processing, and how many failed with nothing in progress. */
export type UnfinishedCounts = Pick<ItemCounts, 'processing' | 'failed'>;

/** Pure: the counts of an investigation's items from its total and how many are unfinished. */
export const itemCountsOf = (total: number, { processing, failed }: UnfinishedCounts): ItemCounts => ({
  total,
  processing,
  failed,
  ready: Math.max(0, total - processing - failed),
});

/** Pure: the counts of an investigation's items from its total and its unfinished items. */
export const countItems = (total: number, rows: readonly Pick<ItemProgress, 'processing' | 'failed'>[]): ItemCounts =>
  itemCountsOf(total, {
    processing: rows.filter((r) => r.processing).length,
    failed: rows.filter((r) => !r.processing && r.failed).length,
  });

/** An investigation's items (evidence items and background documents) by readiness. */
export const investigationItemCounts = async (
  db: Kysely<Database>,
  investigationId: string,
  kinds: { evidenceItems: number; backgroundDocuments: number },
): Promise<ItemCounts> => {
  const { rows } = await unfinished(db, investigationId);
  return countItems(kinds.evidenceItems + kinds.backgroundDocuments, rows);
};

/**
 * How many of an investigation's evidence items are unfinished (background documents left out: assess counts evidence),
 * as one value of a statement that reads the investigation anyway — `investigation` names its id there — so assess
 * stays one round trip.
 */
export const unfinishedEvidence = (investigation: RawBuilder<string>) =>
  sql<UnfinishedCounts>`(select json_build_object('processing', count(*) filter (where processing),
                                                  'failed', count(*) filter (where not processing and failed))
                         from (${unfinishedParts(investigation, { evidenceOnly: true })}) unfinished)`;

/** The readiness of every item of an investigation that is not ready (an item absent from the map is ready). */
export const unfinishedReadiness = async (db: Kysely<Database>, investigationId: string): Promise<Map<string, Readiness>> => {
  const { rows } = await unfinished(db, investigationId);
  return new Map(rows.map((row) => [row.item, readinessOf(row)]));
};

/** One item's readiness. */
export const itemReadiness = async (db: Kysely<Database>, investigationId: string, item: string): Promise<Readiness> => {
  const { rows } = await unfinished(db, investigationId, { item });
  return readinessOf(rows[0] ?? { processing: false, failed: false });
};

/** Chunks of an investigation, and those still waiting for their embeddings (a duplicate waits for its representative). */
export const chunkCounts = async (db: Kysely<Database>, investigationId: string): Promise<{ total: number; pending: number }> => {
  const { rows } = await sql<{ total: number; pending: number }>`
    select count(*)::int as total, count(*) filter (where embedding is null)::int as pending
    from text_chunks where investigation_id = ${investigationId}`.execute(db);
  return rows[0] ?? { total: 0, pending: 0 };
};
