/**
 * GET /api/analysis/{analysis_id}/retrieval: the chunks the AI considered for one analysis, as the
 * retrieval panel shows them (SPEC "Retrieval chunk", DESIGN.md wire names), read in one query.
 *
 * source_title:
 * - content chunk: the parent evidence item's title;
 * - attachment chunk: the parent evidence item's title and the attachment's file name,
 *   "Invoice BIS-1041 — bis-1041.txt" (just the evidence title when the chunk has since been
 *   re-chunked or removed, so the attachment can no longer be told);
 * - background_doc chunk: the background document's title;
 * - parent deleted (retrieval_records' foreign keys are `on delete set null`): "(evidence item deleted)"
 *   or "(background document deleted)", with `source_deleted: true` — never a made-up placeholder.
 *
 * similarity is the stored cosine similarity clamped to 0..1 (pgvector can return slightly negative
 * values); band is similarityBand() of it (key, label, color, whole percent). exclusion_reason is null
 * for included chunks. text is an excerpt of the chunk (first 300 characters, text_truncated says if
 * cut), null when the chunk no longer exists; GET …/retrieval/{chunk_id} (getRetrievalChunk) gives it whole,
 * with its surrounding passage. attachment_id (attachment chunks) or background_document_id is what
 * GET /api/storage/view opens the file with. page: the page of its PDF the chunk starts on (null for other sources). low_relevance: no chunk reached the similarity floor, so
 * the closest few are the included ones (retrieval.ts). duplicates: the other evidence items holding the same
 * passage (its near-duplicate group: retrieval searches one passage for all of them).
 */
import type { Kysely } from 'kysely';
import type { Database, SourceType } from '#core/db/schema';
import { similarityBand, type SimilarityBand } from '#core/domain/similarity';
import { groupMembers } from '#core/embeddings/chunk-store';
import { DUPLICATES_LISTED } from './contract';
import { joinChunks } from '#core/embeddings/chunking';
import { organizationAnalyses } from '#core/repositories/analyses';
import { jsonColumn } from '#core/db/values';
import type { InclusionRuleRecord } from './retrieval';

export const EXCERPT_CHARS = 300;

export const DELETED_TITLE = {
  evidence: '(evidence item deleted)',
  background: '(background document deleted)',
} as const;

interface RetrievalChunkView {
  rank: number;
  source_title: string;
  type: SourceType;
  included: boolean;
  similarity: number;
  band: SimilarityBand;
  exclusion_reason: string | null;
  chunk_id: string | null;
  evidence_item_id: string | null;
  background_document_id: string | null;
  attachment_id: string | null;
  attachment_file_name: string | null;
  source_deleted: boolean;
  page: number | null;
  text: string | null;
  text_truncated: boolean;
  duplicates: Duplicates;
}

interface Duplicates {
  count: number;
  evidence: { evidence_id: string; title: string }[];
}

export interface RetrievalView {
  analysis_id: string;
  low_relevance: boolean;
  chunks: RetrievalChunkView[];
  summary: { total: number; included: number; excluded: number; rule: InclusionRuleRecord | null };
}

interface Titles {
  type: SourceType;
  evidence_title: string | null;
  background_title: string | null;
  file_name: string | null;
}

const sourceTitle = ({ type, evidence_title, background_title, file_name }: Titles): { title: string; deleted: boolean } => {
  if (type === 'background_doc') {
    return background_title === null ? { title: DELETED_TITLE.background, deleted: true } : { title: background_title, deleted: false };
  }
  if (evidence_title === null) return { title: DELETED_TITLE.evidence, deleted: true };
  return { title: type === 'attachment' && file_name ? `${evidence_title} — ${file_name}` : evidence_title, deleted: false };
};

/** The analysis's retrieval records with what their views need, in rank order (one left-joined row and no records yet). */
const retrievalRows = (db: Kysely<Database>, organizationId: string, analysisId: string) =>
  organizationAnalyses(db, organizationId)
    .leftJoin('retrieval_records as r', 'r.analysis_id', 'a.id')
    .leftJoin('text_chunks as c', 'c.id', 'r.chunk_id')
    .leftJoin('evidence_items as ei', 'ei.id', 'r.evidence_item_id')
    .leftJoin('background_documents as bd', 'bd.id', 'r.background_document_id')
    .leftJoin('embedding_sources as es', (join) =>
      join.onRef('es.id', '=', 'c.embedding_source_id').on('es.source_type', '=', 'attachment'),
    )
    .leftJoin('attachments as at', (join) =>
      join.onRef('at.id', '=', 'es.source_id').onRef('at.evidence_item_id', '=', 'r.evidence_item_id'),
    )
    .select([
      'a.id as analysis_id',
      'a.low_relevance',
      'a.retrieval_quality',
      'r.rank',
      'r.source_type',
      'r.included',
      'r.similarity',
      'r.exclusion_reason',
      'r.chunk_id',
      'r.evidence_item_id',
      'r.background_document_id',
      'c.text',
      'c.embedding_source_id',
      'c.chunk_index',
      'c.page',
      'ei.title as evidence_title',
      'bd.title as background_title',
      'at.id as attachment_id',
      'at.file_name',
    ])
    .where('a.id', '=', analysisId)
    .orderBy('r.rank');

type RetrievalRow = Awaited<ReturnType<ReturnType<typeof retrievalRows>['execute']>>[number];

const NO_DUPLICATES: Duplicates = { count: 0, evidence: [] };

/**
 * The evidence items holding each representative's passage besides its own item (its near-duplicate group,
 * embeddings/chunk-store.ts groupMembers), distinct, by title.
 */
const duplicatesOf = async (db: Kysely<Database>, rows: readonly RetrievalRow[]): Promise<Map<string, Duplicates>> => {
  const own = new Map(rows.flatMap((r) => (r.chunk_id ? [[r.chunk_id, r.evidence_item_id] as const] : [])));
  const byRepresentative = new Map<string, Map<string, string>>();
  for (const member of await groupMembers(db, [...own.keys()])) {
    if (member.evidence_item_id === null || member.evidence_item_id === own.get(member.representative)) continue;
    const items = byRepresentative.get(member.representative) ?? new Map<string, string>();
    items.set(member.evidence_item_id, member.title);
    byRepresentative.set(member.representative, items);
  }
  return new Map(
    [...byRepresentative].map(([representative, items]) => [
      representative,
      {
        count: items.size,
        evidence: [...items]
          .map(([evidence_id, title]) => ({ evidence_id, title }))
          .sort((a, b) => a.title.localeCompare(b.title) || a.evidence_id.localeCompare(b.evidence_id))
          .slice(0, DUPLICATES_LISTED),
      },
    ]),
  );
};

/** One record as the panel shows it, its text cut to `excerptChars`; none for the row of an analysis without records. */
const toChunkView = (row: RetrievalRow, excerptChars: number, duplicates: Map<string, Duplicates>): RetrievalChunkView[] => {
  if (row.rank === null || row.source_type === null || row.similarity === null || row.included === null) return []; // no records yet
  const similarity = Math.min(1, Math.max(0, row.similarity));
  const { title, deleted } = sourceTitle({
    type: row.source_type,
    evidence_title: row.evidence_title,
    background_title: row.background_title,
    file_name: row.file_name,
  });
  const attachment = row.source_type === 'attachment';
  return [
    {
      rank: row.rank,
      source_title: title,
      type: row.source_type,
      included: row.included,
      similarity,
      band: similarityBand(row.similarity),
      exclusion_reason: row.included ? null : row.exclusion_reason,
      chunk_id: row.chunk_id,
      evidence_item_id: row.evidence_item_id,
      background_document_id: row.background_document_id,
      attachment_id: attachment ? row.attachment_id : null,
      attachment_file_name: attachment ? row.file_name : null,
      source_deleted: deleted,
      page: row.page,
      text: row.text === null ? null : row.text.slice(0, excerptChars),
      text_truncated: row.text !== null && row.text.length > excerptChars,
      duplicates: (row.chunk_id && duplicates.get(row.chunk_id)) || NO_DUPLICATES,
    },
  ];
};

/**
 * Undefined when the analysis is missing or not the organization's; an analysis not yet generated has no chunks. Each
 * chunk's text is cut to `excerptChars` (the panel's excerpt; the export quotes passages whole).
 */
export const getRetrieval = async (
  db: Kysely<Database>,
  organizationId: string,
  analysisId: string,
  excerptChars = EXCERPT_CHARS,
): Promise<RetrievalView | undefined> => {
  const rows = await retrievalRows(db, organizationId, analysisId).execute();
  if (rows.length === 0) return undefined;
  const duplicates = await duplicatesOf(db, rows);
  const chunks = rows.flatMap((row) => toChunkView(row, excerptChars, duplicates));
  const included = chunks.filter((c) => c.included).length;
  return {
    analysis_id: analysisId,
    low_relevance: rows[0]!.low_relevance,
    chunks,
    summary: {
      total: chunks.length,
      included,
      excluded: chunks.length - included,
      rule: jsonColumn<{ rule?: InclusionRuleRecord }>(rows[0]!.retrieval_quality)?.rule ?? null,
    },
  };
};

export interface RetrievalChunkDetail {
  analysis_id: string;
  chunk: RetrievalChunkView & { chunk_id: string; text: string; chunk_index: number };
  passage: {
    /** the chunk and its neighbours in the same source, joined where they overlap */
    text: string;
    /** where the chunk's text is in `text` */
    chunk_start: number;
    chunk_end: number;
    /** the source has text before / after the passage */
    more_before: boolean;
    more_after: boolean;
  };
}

/**
 * One chunk of an analysis's retrieval, its text whole, in its surrounding passage: the chunk with `around` chunks
 * of the same source on each side (1 by default: with ~800-character chunks, a passage of up to ~2,200 characters;
 * more when the reader asks for more of the document). Undefined when the analysis is not the organization's, or
 * the chunk is not among its retrieval (or no longer exists: its record lost its chunk id).
 */
export const getRetrievalChunk = async (
  db: Kysely<Database>,
  organizationId: string,
  analysisId: string,
  chunkId: string,
  around = 1,
): Promise<RetrievalChunkDetail | undefined> => {
  const row = await retrievalRows(db, organizationId, analysisId).where('r.chunk_id', '=', chunkId).executeTakeFirst();
  if (!row || row.text === null || row.embedding_source_id === null || row.chunk_index === null) return undefined;
  const [view] = toChunkView(row, row.text.length, await duplicatesOf(db, [row]));
  if (!view) return undefined;
  const index = row.chunk_index;
  // one more chunk on each side than the passage shows: whether the source goes on past it
  const near = await db
    .selectFrom('text_chunks')
    .select(['chunk_index', 'text'])
    .where('embedding_source_id', '=', row.embedding_source_id)
    .where('chunk_index', '>=', index - around - 1)
    .where('chunk_index', '<=', index + around + 1)
    .orderBy('chunk_index')
    .execute();
  const shown = near.filter((c) => Math.abs(c.chunk_index - index) <= around);
  const { text, spans } = joinChunks(shown.map((c) => c.text));
  const span = spans[shown.findIndex((c) => c.chunk_index === index)]!;
  return {
    analysis_id: analysisId,
    chunk: { ...view, chunk_id: chunkId, text: row.text, chunk_index: index },
    passage: {
      text,
      chunk_start: span.start,
      chunk_end: span.end,
      more_before: near[0]!.chunk_index < shown[0]!.chunk_index,
      more_after: near.at(-1)!.chunk_index > shown.at(-1)!.chunk_index,
    },
  };
};
