/**
 * Opening evidence against the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL), issue 15,
 * item 2: the evidence listing (evidence items with their attachments, then background documents, one
 * keyset-paged list; what the storage viewer needs; each entry's readiness; organization scoping; bad cursors) and one retrieved
 * chunk in its surrounding passage (neighbouring chunks of its source; 404 for a chunk not in the analysis).
 */
import { randomUUID } from 'node:crypto';
import { getRetrievalChunk } from '#core/analysis/retrieval-view';
import { chunkText } from '#core/embeddings/chunking';
import { listEvidence, type EvidenceEntry } from '#core/evidence/listing';
import { analysisRetrievalChunkRoute } from '#core/analysis/contract';
import { investigationEvidenceRoute } from '#core/evidence/contract';
import { DomainError } from '#core/errors';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();
const ids = { org: '', otherOrg: '', inv: '', empty: '', analysis: '', theirAnalysis: '', attachment: '', report: '' };
const chunks: string[] = [];
const REPORT = Array.from(
  { length: 12 },
  (_, i) =>
    `Paragraph ${i + 1}: the receiving clerk logged pallet ${100 + i} at dock ${i % 3} and ` +
    'the supervisor countersigned the entry the same afternoon, as the warehouse procedure requires for every delivery.',
).join('\n\n');

const id = async (table: 'organizations' | 'investigations' | 'evidence_items' | 'analyses', values: Record<string, unknown>) =>
  (
    (await db
      .insertInto(table)
      .values(values as never)
      .returning('id')
      .executeTakeFirstOrThrow()) as { id: string }
  ).id;

beforeAll(async () => {
  ids.org = await id('organizations', { name: 'Evidence Org' });
  ids.otherOrg = await id('organizations', { name: 'Elsewhere' });
  ids.inv = await id('investigations', { organization_id: ids.org, title: 'Dock 3' });
  ids.empty = await id('investigations', { organization_id: ids.org, title: 'Nothing yet' });
  const theirs = await id('investigations', { organization_id: ids.otherOrg, title: 'Theirs' });
  // titles out of order on purpose; "Receiving report" has two attachments, listed by file name
  for (const title of ['Witness note', 'Receiving report', 'Email to the supervisor', 'Badge log']) {
    await id('evidence_items', {
      investigation_id: ids.inv,
      title,
      content: `${title}.`,
      collected_at: title === 'Badge log' ? new Date('2024-03-08T10:00:00Z') : null,
    });
  }
  const report = await db.selectFrom('evidence_items').select('id').where('title', '=', 'Receiving report').executeTakeFirstOrThrow();
  ids.report = report.id;
  const attach = (file_name: string, size_bytes: number) =>
    db
      .insertInto('attachments')
      .values({
        evidence_item_id: report.id,
        file_name,
        content_type: 'text/plain',
        size_bytes,
        storage_key: `attachments/${randomUUID()}`,
        extracted_text: REPORT,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  ids.attachment = (await attach('receiving_log.txt', 2048)).id;
  await attach('photo_notes.txt', 10);
  for (const [title, included] of [
    ['Warehouse procedure', true],
    ['Org chart', false],
  ] as const) {
    await db
      .insertInto('background_documents')
      .values({
        investigation_id: ids.inv,
        title,
        file_name: `${title}.txt`,
        content_type: 'text/plain',
        size_bytes: 5,
        storage_key: `background/${randomUUID()}`,
        included_for_ai: included,
      })
      .execute();
  }

  // the attachment's text in chunks, as the sweeper stores them; the analysis considered the fourth
  const source = await db
    .insertInto('embedding_sources')
    .values({ investigation_id: ids.inv, source_type: 'attachment', source_id: ids.attachment, status: 'embedded' })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const c of chunkText(REPORT)) {
    chunks.push(
      (
        await db
          .insertInto('text_chunks')
          .values({
            investigation_id: ids.inv,
            embedding_source_id: source.id,
            source_type: 'attachment',
            evidence_item_id: report.id,
            chunk_index: c.index,
            text: c.text,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  ids.analysis = await id('analyses', {
    investigation_id: ids.inv,
    analysis_type: 'summary',
    generation_status: 'complete',
    low_relevance: true,
  });
  ids.theirAnalysis = await id('analyses', { investigation_id: theirs, analysis_type: 'summary', generation_status: 'complete' });
  await db
    .insertInto('retrieval_records')
    .values(
      [0, 3, chunks.length - 1].map((i, rank) => ({
        analysis_id: ids.analysis,
        rank: rank + 1,
        chunk_id: chunks[i]!,
        source_type: 'attachment' as const,
        evidence_item_id: report.id,
        similarity: 0.15 - rank / 100,
        included: true,
        exclusion_reason: null,
      })),
    )
    .execute();
});

const titles = (items: EvidenceEntry[]) => items.map((i) => `${i.kind}:${i.title}`);

describe('evidence listing', () => {
  test('evidence items by title with their attachments, then background documents with their included flag', async () => {
    const page = (await listEvidence(db, ids.org, ids.inv, { limit: 50 }))!;
    expect(page.next_cursor).toBeNull();
    expect(titles(page.items)).toEqual([
      'evidence_item:Badge log',
      'evidence_item:Email to the supervisor',
      'evidence_item:Receiving report',
      'evidence_item:Witness note',
      'background_document:Org chart',
      'background_document:Warehouse procedure',
    ]);
    const report = page.items[2]!;
    expect(report).toMatchObject({ kind: 'evidence_item', evidence_item_id: ids.report, collected_at: null });
    expect(report.kind === 'evidence_item' && report.attachments).toEqual([
      expect.objectContaining({ file_name: 'photo_notes.txt', size_bytes: 10 }),
      {
        attachment_id: ids.attachment,
        file_name: 'receiving_log.txt',
        content_type: 'text/plain',
        size_bytes: 2048,
        view_path: `/api/storage/view?attachment_id=${ids.attachment}`,
      },
    ]);
    expect(page.items[0]).toMatchObject({ collected_at: '2024-03-08T10:00:00.000Z', attachments: [], readiness: 'ready' });
    const [orgChart, procedure] = page.items.slice(4);
    expect(orgChart).toMatchObject({
      kind: 'background_document',
      included: false,
      file_name: 'Org chart.txt',
      extraction_status: 'pending',
      size_bytes: 5,
      readiness: 'processing',
    });
    expect(procedure).toMatchObject({ included: true });
    if (procedure?.kind !== 'background_document') throw new Error('a background document');
    expect(procedure.view_path).toBe(`/api/storage/view?background_document_id=${procedure.background_document_id}`);
    expect(investigationEvidenceRoute.response.safeParse(page).success).toBe(true);
  });

  test('pages of every size walk the one list once, across the change from evidence items to background documents', async () => {
    const all = titles((await listEvidence(db, ids.org, ids.inv, { limit: 50 }))!.items);
    for (const limit of [1, 2, 3, 4, 5, 6]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await listEvidence(db, ids.org, ids.inv, { limit, cursor }))!;
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...titles(page.items));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(all);
    }
  });

  test("an empty investigation lists nothing; another organization's, or none, is not found; a forged cursor is a 400", async () => {
    expect(await listEvidence(db, ids.org, ids.empty, { limit: 10 })).toEqual({
      investigation_id: ids.empty,
      items: [],
      next_cursor: null,
    });
    expect(await listEvidence(db, ids.otherOrg, ids.inv, { limit: 10 })).toBeUndefined();
    expect(await listEvidence(db, ids.org, randomUUID(), { limit: 10 })).toBeUndefined();
    const forged = (place: unknown[]) => Buffer.from(JSON.stringify(place)).toString('base64url');
    const [first] = (await listEvidence(db, ids.org, ids.inv, { limit: 1 }))!.items;
    // the kinds' ids are not interchangeable, and an id of another investigation is no place in this one
    for (const cursor of [
      'nope',
      forged(['evidence_item', 'not-a-uuid']),
      forged(['item', randomUUID()]),
      forged(['background_document', ids.report]),
      forged(['evidence_item', randomUUID()]),
    ]) {
      await expect(listEvidence(db, ids.org, ids.inv, { limit: 10, cursor })).rejects.toMatchObject({
        kind: 'invalid',
        details: [{ path: 'cursor' }],
      });
    }
    await expect(listEvidence(db, ids.org, ids.inv, { limit: 10, cursor: 'nope' })).rejects.toBeInstanceOf(DomainError);
    expect(
      first!.kind === 'evidence_item' &&
        (await listEvidence(db, ids.org, ids.empty, { limit: 1, cursor: forged(['evidence_item', first!.evidence_item_id]) }).catch(
          (error: DomainError) => error.kind,
        )),
    ).toBe('invalid');
  });

  test('a cursor names the last entry, not its title, so it stays short whatever the titles are', async () => {
    const inv = await id('investigations', { organization_id: ids.org, title: 'Long titles' });
    const long = await id('evidence_items', { investigation_id: inv, title: '東'.repeat(300) });
    await id('evidence_items', { investigation_id: inv, title: '西'.repeat(300) });
    const page = (await listEvidence(db, ids.org, inv, { limit: 1 }))!;
    expect(page.next_cursor!.length).toBeLessThan(100);
    const next = (await listEvidence(db, ids.org, inv, { limit: 1, cursor: page.next_cursor! }))!;
    expect([...page.items, ...next.items].map((i) => i.kind === 'evidence_item' && i.evidence_item_id)).toContain(long);
    expect(next.items).toHaveLength(1);
    expect(next.next_cursor).toBeNull();
  });
});

describe('one retrieved chunk in its passage', () => {
  test('the whole chunk, and its neighbours of the same source joined around it', async () => {
    const detail = (await getRetrievalChunk(db, ids.org, ids.analysis, chunks[3]!))!;
    const all = chunkText(REPORT);
    expect(detail.chunk).toMatchObject({
      rank: 2,
      chunk_id: chunks[3],
      chunk_index: 3,
      type: 'attachment',
      attachment_id: ids.attachment,
      attachment_file_name: 'receiving_log.txt',
      source_title: 'Receiving report — receiving_log.txt',
      text: all[3]!.text,
      text_truncated: false,
      included: true,
    });
    const { passage } = detail;
    expect(passage.text).toBe(
      all[2]!.text.slice(0, all[3]!.start - all[2]!.start) + all[3]!.text + all[4]!.text.slice(all[3]!.end - all[4]!.start),
    );
    expect(passage.text.slice(passage.chunk_start, passage.chunk_end)).toBe(all[3]!.text);
    expect(passage).toMatchObject({ more_before: true, more_after: all.length > 5 });
    expect(analysisRetrievalChunkRoute.response.safeParse(detail).success).toBe(true);
  });

  test('at the ends of the source the passage has one neighbour, and says nothing more is there', async () => {
    const first = (await getRetrievalChunk(db, ids.org, ids.analysis, chunks[0]!))!.passage;
    expect(first).toMatchObject({ chunk_start: 0, more_before: false, more_after: true });
    const last = (await getRetrievalChunk(db, ids.org, ids.analysis, chunks.at(-1)!))!.passage;
    expect(last).toMatchObject({ chunk_end: last.text.length, more_before: true, more_after: false });
  });

  test("a chunk not among the analysis's retrieval, another organization's analysis, or a deleted chunk: not found", async () => {
    expect(await getRetrievalChunk(db, ids.org, ids.analysis, chunks[1]!)).toBeUndefined(); // the source's, but not considered
    expect(await getRetrievalChunk(db, ids.org, ids.analysis, randomUUID())).toBeUndefined();
    expect(await getRetrievalChunk(db, ids.otherOrg, ids.analysis, chunks[3]!)).toBeUndefined();
    expect(await getRetrievalChunk(db, ids.org, ids.theirAnalysis, chunks[3]!)).toBeUndefined();
    await db.deleteFrom('text_chunks').where('id', '=', chunks.at(-1)!).execute();
    expect(await getRetrievalChunk(db, ids.org, ids.analysis, chunks.at(-1)!)).toBeUndefined();
  });
});
