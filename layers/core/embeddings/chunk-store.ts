/**
 * Writing a source's text as chunks, the one way every text comes in (an evidence item's content, an extracted
 * attachment or background document, a bulk import's line, a seed file): the source's status row goes back to
 * pending, its old chunks go (retrieval must not cite text the source no longer has), and the new chunks are
 * written without embeddings. The embedding worker embeds them many to a model request (./embedding-work.ts);
 * a text that gives no chunk is embedded at once (there is nothing to wait for).
 * Each chunk records where it sits in the source's normalised text and the PDF page it starts on (chunking.ts).
 *
 * Near-duplicates are grouped here, as the text comes in (near-duplicates.ts): a new chunk whose text is a
 * near-duplicate of a representative chunk of the same investigation joins its group (`duplicate_of`) and is never
 * sent to the model: it takes the representative's vector (now, or when the representative is embedded). The
 * investigation's groups are decided one writer at a time (a transaction-scoped advisory lock), so two items
 * holding the same passage, written at once, still make one group.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, SourceType } from '#core/db/schema';
import { lockForTransaction } from '#core/db/transaction-state';
import { fillDuplicates } from './chunk-claims';
import { prepareChunks, type PreparedChunk } from './chunking';
import { lshBands, representativeFor, shinglesOf, type GroupCandidate } from './near-duplicates';

/** Unembedded chunks per insert statement (each carries up to ~800 characters of text). */
const INSERT_BATCH = 100;

export interface SourceToWrite {
  investigation_id: string;
  source_type: SourceType;
  /** the evidence item (content), attachment or background document */
  source_id: string;
  /** exactly one of these: the item or document the chunks belong to */
  evidence_item_id: string | null;
  background_document_id: string | null;
}

export interface WrittenSource {
  embedding_source_id: string;
  chunks: number;
  /** of those, near-duplicates of a passage the investigation already holds (or of an earlier chunk of this text) */
  duplicates: number;
  /** chunks of the previous text that were removed */
  replaced: number;
}

/**
 * Replaces the source's chunks with those of `text`, unembedded, and marks the source pending (attempts reset),
 * in the caller's transaction. The source row is written first, so concurrent writers of one source queue on it.
 */
export const writeSourceChunks = async (trx: Kysely<Database>, source: SourceToWrite, text: string): Promise<WrittenSource> => {
  const chunks = prepareChunks(text);
  // shingles and LSH keys before any lock is taken: the investigation's writers queue on its groups' lock
  const described = chunks.map((chunk) => {
    const shingles = shinglesOf(chunk.text);
    return { chunk, shingles, bands: lshBands(shingles) };
  });
  const row = await trx
    .insertInto('embedding_sources')
    .values({ ...source, status: chunks.length === 0 ? 'embedded' : 'pending', attempts: 0, error_message: null })
    .onConflict((oc) =>
      oc.columns(['source_type', 'source_id']).doUpdateSet((eb) => ({
        status: eb.ref('excluded.status'),
        attempts: 0,
        error_message: null,
        evidence_item_id: eb.ref('excluded.evidence_item_id'),
        background_document_id: eb.ref('excluded.background_document_id'),
        updated_at: sql`now()`,
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  const removed = await trx.deleteFrom('text_chunks').where('embedding_source_id', '=', row.id).executeTakeFirst();
  const grouped = await groupNearDuplicates(trx, source.investigation_id, described);
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    await trx
      .insertInto('text_chunks')
      .values(
        grouped.slice(i, i + INSERT_BATCH).map(({ chunk, id, bands, representative }) => ({
          id,
          investigation_id: source.investigation_id,
          embedding_source_id: row.id,
          source_type: source.source_type,
          evidence_item_id: source.evidence_item_id,
          background_document_id: source.background_document_id,
          chunk_index: chunk.index,
          text: chunk.text,
          token_count: chunk.tokenCount,
          char_start: chunk.start,
          char_end: chunk.end,
          page: chunk.page,
          lsh_bands: [...bands],
          duplicate_of: representative?.id ?? null,
          embedding: null,
        })),
      )
      .execute();
  }
  // a duplicate of an embedded passage is embedded at once, with its representative's vector; a text whose every
  // passage is such a copy (a forward) is embedded at once: no claim will ever take it, so nothing else would mark it
  const copied = grouped.some((g) => g.representative) ? await fillDuplicates(trx, { source: row.id }) : [];
  if (grouped.length > 0 && copied.length === grouped.length)
    await trx.updateTable('embedding_sources').set({ status: 'embedded', updated_at: sql`now()` }).where('id', '=', row.id).execute();
  return {
    embedding_source_id: row.id,
    chunks: chunks.length,
    duplicates: grouped.filter((g) => g.representative).length,
    replaced: Number(removed.numDeletedRows),
  };
};

/** Each new chunk with its id, its LSH keys and the representative it joins (none: it is one). */
const groupNearDuplicates = async (
  trx: Kysely<Database>,
  investigationId: string,
  described: readonly ({ chunk: PreparedChunk } & Omit<GroupCandidate, 'id'>)[],
) => {
  await lockForTransaction(trx, sql`hashtext('chunk-groups:' || ${investigationId}::text)`);
  const keys = [...new Set(described.flatMap((d) => d.bands))];
  const candidates: GroupCandidate[] =
    keys.length === 0
      ? []
      : // one index probe per key: `lsh_bands && <a document's ~200 keys>` is estimated to match most rows, and
        // PostgreSQL scanned the investigation's chunks instead (280 ms at 40,000, inside the lock, measured). The
        // investigation is checked on the key's chunks (`offset 0` keeps it out of the probe): where the statistics
        // took an investigation for small (a new one, or PGlite's, never analyzed), the planner ANDed each key's
        // bitmap with the investigation index's, every chunk of it read per key; placing 100,000 slowed to 3 a second
        (
          await sql<{ id: string; text: string; lsh_bands: number[] | null }>`
            select distinct on (c.id) c.id, c.text, c.lsh_bands
            from unnest(${sql.val(keys)}::int[]) as k(key),
                 lateral (select id, text, lsh_bands from (select id, text, lsh_bands, investigation_id from text_chunks
                                                           where lsh_bands @> array[k.key] and duplicate_of is null
                                                           offset 0) keyed
                          where keyed.investigation_id = ${investigationId}) c`.execute(trx)
        ).rows.map((row) => ({ ...row, shingles: shinglesOf(row.text), bands: row.lsh_bands ?? [] }));
  return described.map(({ chunk, shingles, bands }) => {
    const representativeId = representativeFor({ shingles, bands }, candidates);
    const representative = representativeId === undefined ? undefined : candidates.find((c) => c.id === representativeId);
    const id = randomUUID();
    // a representative of this text's own: a later chunk of it may be its duplicate (boilerplate repeated in a file)
    if (!representative) candidates.push({ id, shingles, bands });
    return { chunk, id, bands, representative };
  });
};

export interface GroupMember {
  /** the representative the member belongs to */
  representative: string;
  evidence_item_id: string | null;
  background_document_id: string | null;
  /** its evidence item's or background document's title */
  title: string;
}

/**
 * The members of the representatives' near-duplicate groups (the representatives themselves left out), with their
 * items' titles: what a retrieved passage stands for beyond its own item (evidence coverage, the retrieval view).
 */
export const groupMembers = async (db: Kysely<Database>, representatives: readonly string[]): Promise<GroupMember[]> =>
  representatives.length === 0
    ? []
    : (db
        .selectFrom('text_chunks as d')
        .leftJoin('evidence_items as e', 'e.id', 'd.evidence_item_id')
        .leftJoin('background_documents as b', 'b.id', 'd.background_document_id')
        .select((eb) => [
          'd.duplicate_of as representative',
          'd.evidence_item_id',
          'd.background_document_id',
          eb.fn.coalesce('e.title', 'b.title', sql<string>`''`).as('title'),
        ])
        .where('d.duplicate_of', 'in', [...representatives])
        .execute() as Promise<GroupMember[]>);
