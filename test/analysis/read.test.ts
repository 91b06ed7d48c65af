/**
 * Reading analyses against the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the
 * retrieval view (source titles for content, attachment and background chunks and for deleted
 * parents, similarity bands at the spec's edges, exclusion reasons, summary, rank order, organization
 * scoping) and the analysis list (newest first, feedback badges, engagement, paging, scoping).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { ANALYSIS_LIST, getAnalysis, listAnalyses, type AnalysisList } from '#core/analysis/read';
import { EXCLUSION } from '#core/analysis/retrieval';
import { DELETED_TITLE, EXCERPT_CHARS, getRetrieval } from '#core/analysis/retrieval-view';
import type { SourceType } from '#core/db/schema';
import { analysisListRoute, analysisRetrievalRoute } from '#core/analysis/contract';
import { DomainError } from '#core/errors';
import { creationPlaceSchema, decodeCursor, type CreationPlace } from '#core/pagination';
import { parseWith } from '#core/contract';
import { useTestDatabase } from '../support/db';

const db = useTestDatabase();

const ids = {
  org: '',
  otherOrg: '',
  user: '',
  inv: '',
  listInv: '',
  theirInv: '',
  email: '',
  invoice: '',
  doomed: '',
  attachment: '',
  policy: '',
  doomedPolicy: '',
  analysis: '',
  empty: '',
  theirs: '',
};
const chunk = { email: '', attachment: '', doomed: '', policy: '', doomedPolicy: '' };
const LONG_TEXT = `The CFO wrote: ${'approve the transfer today. '.repeat(20)}`;

const insertId = async <T extends 'organizations' | 'investigations' | 'evidence_items' | 'analyses'>(table: T, values: never) =>
  ((await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()) as { id: string }).id;

const source = async (
  investigationId: string,
  type: SourceType,
  sourceId: string,
  text: string,
  owner: { evidence_item_id?: string; background_document_id?: string },
) => {
  const es = await db
    .insertInto('embedding_sources')
    .values({ investigation_id: investigationId, source_type: type, source_id: sourceId, status: 'embedded' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (
    await db
      .insertInto('text_chunks')
      .values({
        investigation_id: investigationId,
        embedding_source_id: es.id,
        source_type: type,
        chunk_index: 0,
        text,
        ...owner,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
};

const record = (
  rank: number,
  chunkId: string,
  type: SourceType,
  owner: { evidence_item_id?: string; background_document_id?: string },
  similarity: number,
  exclusion: string | null,
) => ({
  analysis_id: ids.analysis,
  rank,
  chunk_id: chunkId,
  source_type: type,
  similarity,
  included: exclusion === null,
  exclusion_reason: exclusion,
  evidence_item_id: owner.evidence_item_id ?? null,
  background_document_id: owner.background_document_id ?? null,
});

beforeAll(async () => {
  ids.org = await insertId('organizations', { name: 'Read Org' } as never);
  ids.otherOrg = await insertId('organizations', { name: 'Other Org' } as never);
  ids.user = (
    await db
      .insertInto('users')
      .values({
        organization_id: ids.org,
        idp_subject: `sub-${randomUUID()}`,
        email: `${randomUUID()}@example.test`,
        display_name: 'Reader',
        role: 'investigator',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  ids.inv = await insertId('investigations', { organization_id: ids.org, title: 'Transfers' } as never);
  ids.listInv = await insertId('investigations', { organization_id: ids.org, title: 'Listing' } as never);
  ids.theirInv = await insertId('investigations', { organization_id: ids.otherOrg, title: 'Theirs' } as never);

  ids.email = await insertId('evidence_items', { investigation_id: ids.inv, title: 'Email from the CFO', content: LONG_TEXT } as never);
  ids.invoice = await insertId('evidence_items', { investigation_id: ids.inv, title: 'Invoice BIS-1041', content: '' } as never);
  ids.doomed = await insertId('evidence_items', { investigation_id: ids.inv, title: 'Note to be deleted', content: 'Soon gone.' } as never);
  ids.attachment = (
    await db
      .insertInto('attachments')
      .values({
        evidence_item_id: ids.invoice,
        file_name: 'bis-1041.txt',
        content_type: 'text/plain',
        storage_key: `attachments/${randomUUID()}`,
        extracted_text: 'Amount due: 9,800 EUR',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const doc = (title: string) =>
    db
      .insertInto('background_documents')
      .values({
        investigation_id: ids.inv,
        title,
        file_name: `${title}.txt`,
        content_type: 'text/plain',
        storage_key: `background/${randomUUID()}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  ids.policy = (await doc('Expense policy')).id;
  ids.doomedPolicy = (await doc('Old travel policy')).id;

  chunk.email = await source(ids.inv, 'content', ids.email, LONG_TEXT, { evidence_item_id: ids.email });
  chunk.attachment = await source(ids.inv, 'attachment', ids.attachment, 'Amount due: 9,800 EUR', { evidence_item_id: ids.invoice });
  chunk.doomed = await source(ids.inv, 'content', ids.doomed, 'Soon gone.', { evidence_item_id: ids.doomed });
  chunk.policy = await source(ids.inv, 'background_doc', ids.policy, 'Transfers above 5,000 EUR need two signatures.', {
    background_document_id: ids.policy,
  });
  chunk.doomedPolicy = await source(ids.inv, 'background_doc', ids.doomedPolicy, 'Economy class only.', {
    background_document_id: ids.doomedPolicy,
  });

  ids.analysis = await insertId('analyses', {
    investigation_id: ids.inv,
    analysis_type: 'summary',
    generation_status: 'complete',
  } as never);
  ids.empty = await insertId('analyses', { investigation_id: ids.inv, analysis_type: 'gap', generation_status: 'queued' } as never);
  ids.theirs = await insertId('analyses', {
    investigation_id: ids.theirInv,
    analysis_type: 'summary',
    generation_status: 'complete',
  } as never);

  // inserted out of rank order on purpose; similarities at the spec's band edges
  await db
    .insertInto('retrieval_records')
    .values([
      record(6, chunk.email, 'content', { evidence_item_id: ids.email }, 0.59, EXCLUSION.belowThreshold),
      record(1, chunk.email, 'content', { evidence_item_id: ids.email }, 0.85, null),
      record(3, chunk.policy, 'background_doc', { background_document_id: ids.policy }, 0.7, null),
      record(2, chunk.attachment, 'attachment', { evidence_item_id: ids.invoice }, 0.84, null),
      record(4, chunk.doomed, 'content', { evidence_item_id: ids.doomed }, 0.69, null),
      record(5, chunk.attachment, 'attachment', { evidence_item_id: ids.invoice }, 0.6, EXCLUSION.contextFull),
      record(7, chunk.doomedPolicy, 'background_doc', { background_document_id: ids.doomedPolicy }, -0.02, EXCLUSION.belowThreshold),
    ])
    .execute();
  // parents deleted after the analysis ran: the records' foreign keys are set null, the chunks cascade away
  await db.deleteFrom('evidence_items').where('id', '=', ids.doomed).execute();
  await db.deleteFrom('background_documents').where('id', '=', ids.doomedPolicy).execute();
});

describe('retrieval view', () => {
  test('chunks in rank order with their sources, bands, reasons and summary', async () => {
    const view = (await getRetrieval(db, ids.org, ids.analysis))!;
    expect(view.analysis_id).toBe(ids.analysis);
    expect(view.chunks.map((c) => c.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // the fixture's analysis was written without the rule it was chosen by (as analyses made before it was recorded)
    expect(view.summary).toEqual({ total: 7, included: 4, excluded: 3, rule: null });
    expect(view.chunks.map((c) => [c.type, c.source_title, c.source_deleted])).toEqual([
      ['content', 'Email from the CFO', false],
      ['attachment', 'Invoice BIS-1041 — bis-1041.txt', false],
      ['background_doc', 'Expense policy', false],
      ['content', DELETED_TITLE.evidence, true],
      ['attachment', 'Invoice BIS-1041 — bis-1041.txt', false],
      ['content', 'Email from the CFO', false],
      ['background_doc', DELETED_TITLE.background, true],
    ]);
    for (const c of view.chunks) expect(c.source_title).not.toMatch(/unknown/i);
    expect(view.chunks.map((c) => [c.similarity, c.band.key, c.band.percent, c.band.color])).toEqual([
      [0.85, 'high', 85, 'green'],
      [0.84, 'relevant', 84, 'yellow'],
      [0.7, 'relevant', 70, 'yellow'],
      [0.69, 'somewhat', 69, 'orange'],
      [0.6, 'somewhat', 60, 'orange'],
      [0.59, 'low', 59, 'gray'],
      [0, 'low', 0, 'gray'], // a slightly negative cosine similarity is shown as 0
    ]);
    expect(view.chunks[0]!.band.label).toBe('High relevance');
    expect(view.chunks.map((c) => c.exclusion_reason)).toEqual([
      null,
      null,
      null,
      null,
      EXCLUSION.contextFull,
      EXCLUSION.belowThreshold,
      EXCLUSION.belowThreshold,
    ]);
    expect(view.chunks.map((c) => c.included)).toEqual([true, true, true, true, false, false, false]);
  });

  test('what the side panel needs to open a citation: ids, file name, an excerpt', async () => {
    const [email, attachment, policy, deleted] = (await getRetrieval(db, ids.org, ids.analysis))!.chunks;
    expect(email).toMatchObject({
      chunk_id: chunk.email,
      evidence_item_id: ids.email,
      background_document_id: null,
      attachment_file_name: null,
      text_truncated: true,
    });
    expect(email!.text).toBe(LONG_TEXT.slice(0, EXCERPT_CHARS));
    expect(attachment).toMatchObject({
      evidence_item_id: ids.invoice,
      attachment_id: ids.attachment,
      attachment_file_name: 'bis-1041.txt',
      text: 'Amount due: 9,800 EUR',
      text_truncated: false,
    });
    expect(policy).toMatchObject({
      background_document_id: ids.policy,
      evidence_item_id: null,
      attachment_id: null,
      text: 'Transfers above 5,000 EUR need two signatures.',
    });
    expect(email!.attachment_id).toBeNull();
    expect(deleted).toMatchObject({ chunk_id: null, evidence_item_id: null, text: null, text_truncated: false });
  });

  test('the response matches its contract', async () => {
    const view = await getRetrieval(db, ids.org, ids.analysis);
    expect(analysisRetrievalRoute.response.safeParse(view).success).toBe(true);
  });

  test('an analysis not yet generated has no chunks', async () => {
    expect(await getRetrieval(db, ids.org, ids.empty)).toEqual({
      analysis_id: ids.empty,
      low_relevance: false,
      chunks: [],
      summary: { total: 0, included: 0, excluded: 0, rule: null },
    });
  });

  test("missing, and another organization's, analyses are not found", async () => {
    expect(await getRetrieval(db, ids.org, randomUUID())).toBeUndefined();
    expect(await getRetrieval(db, ids.org, ids.theirs)).toBeUndefined();
    expect(await getRetrieval(db, ids.otherOrg, ids.analysis)).toBeUndefined();
    expect(await getRetrieval(db, ids.otherOrg, ids.theirs)).toBeDefined();
  });
});

describe('analysis list', () => {
  const at = (minute: number) => new Date(Date.UTC(2025, 0, 10, 9, minute));
  const listed: string[] = []; // newest first
  const sameMs: string[] = [];
  const firstPage = { limit: ANALYSIS_LIST.defaultLimit };

  beforeAll(async () => {
    const statuses = [null, 'accepted', 'rejected', 'regenerated', 'edited', 'needs_revision', 'viewed'] as const;
    for (const [i, status] of statuses.entries()) {
      listed.unshift(
        await insertId('analyses', {
          investigation_id: ids.listInv,
          analysis_type: 'summary',
          generation_status: 'complete',
          feedback_status: status,
          created_at: at(i),
        } as never),
      );
    }
    await db
      .insertInto('analysis_engagements')
      .values({ analysis_id: listed[0]!, user_id: ids.user, detail_reviewed_at: at(30) })
      .execute();
  });

  test('newest first, each the same view as GET /api/analysis/{id}, with its feedback badge', async () => {
    const list = (await listAnalyses(db, ids.org, ids.listInv, ids.user, firstPage))!;
    expect(list.analyses.map((a) => a.analysis_id)).toEqual(listed);
    expect(list.next_cursor).toBeNull();
    expect(list.analyses.map((a) => a.feedback_badge?.label ?? null)).toEqual([
      'Viewed',
      'Needs Revision',
      'Edited',
      'Regenerated',
      'Disagreed',
      'Agreed',
      null,
    ]);
    expect(list.analyses.map((a) => a.feedback_badge?.color ?? null)).toEqual(['gray', 'purple', 'amber', 'blue', 'red', 'green', null]);
    // the single read is the list item plus the investigator's edit and the check's claims and aspects (kept out of the list: they can be long)
    const { edit, claims, coverage_aspects, ...single } = (await getAnalysis(db, ids.org, listed[0]!, ids.user))!;
    expect(list.analyses[0]).toEqual(single);
    expect([edit, claims, coverage_aspects]).toEqual([null, null, null]);
    expect(list.analyses[0]!.detail_reviewed_at).toBe(at(30).toISOString()); // the caller's own gate
    expect((await listAnalyses(db, ids.org, ids.listInv, undefined, firstPage))!.analyses[0]!.detail_reviewed_at).toBeNull();
    expect(analysisListRoute.response.safeParse(list).success).toBe(true);
  });

  test('pages with limit and the cursor of the previous page', async () => {
    const pages = async (limit: number) => {
      const seen: string[][] = [];
      let after: CreationPlace | undefined;
      do {
        const list: AnalysisList = (await listAnalyses(db, ids.org, ids.listInv, ids.user, { limit, ...(after && { after }) }))!;
        seen.push(list.analyses.map((a) => a.analysis_id));
        after = list.next_cursor === null ? undefined : decodeCursor(list.next_cursor, creationPlaceSchema);
      } while (after && seen.length < 10);
      return seen;
    };
    expect(await pages(3)).toEqual([listed.slice(0, 3), listed.slice(3, 6), listed.slice(6)]);
    expect(await pages(7)).toEqual([listed]);
    expect(ANALYSIS_LIST).toEqual({ defaultLimit: 50, maxLimit: 200 });
  });

  test('rows created in the same microsecond or millisecond are neither skipped nor repeated', async () => {
    const inv = await insertId('investigations', { organization_id: ids.org, title: 'Ties' } as never);
    const instant = new Date('2025-02-01T10:00:00.123Z');
    const older = await insertId('analyses', {
      investigation_id: inv,
      analysis_type: 'gap',
      created_at: new Date('2025-02-01T09:00:00Z'),
    } as never);
    for (let i = 0; i < 3; i++)
      sameMs.push(await insertId('analyses', { investigation_id: inv, analysis_type: 'gap', created_at: instant } as never));
    // a microsecond apart inside the same millisecond: an ISO cursor (milliseconds) could not tell them apart
    await db
      .updateTable('analyses')
      .set({ created_at: sql<never>`created_at + interval '1 microsecond'` })
      .where('id', '=', sameMs[0]!)
      .execute();
    const newest = await insertId('analyses', {
      investigation_id: inv,
      analysis_type: 'gap',
      created_at: new Date('2025-02-01T11:00:00Z'),
    } as never);
    const seen: string[] = [];
    let after: CreationPlace | undefined;
    for (let page = 0; page < 10; page++) {
      const list = (await listAnalyses(db, ids.org, inv, undefined, { limit: 2, ...(after && { after }) }))!;
      expect(list.analyses.length).toBeLessThanOrEqual(2);
      seen.push(...list.analyses.map((a) => a.analysis_id));
      if (!list.next_cursor) break;
      after = decodeCursor(list.next_cursor, creationPlaceSchema);
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set([older, newest, ...sameMs]));
    expect(seen.slice(0, 2)).toEqual([newest, sameMs[0]]);
    expect(seen[4]).toBe(older);
  });

  test('a cursor that is not a next_cursor is a 400 on cursor', () => {
    for (const cursor of ['x', Buffer.from('[1,2]').toString('base64url'), Buffer.from('["12","not-a-uuid"]').toString('base64url')]) {
      expect(() => decodeCursor(cursor, creationPlaceSchema)).toThrow(
        expect.objectContaining({
          kind: 'invalid',
          details: [{ path: 'cursor', message: 'must be the next_cursor of the previous page' }],
        }),
      );
    }
  });

  test("another organization's or a missing investigation is not found", async () => {
    expect(await listAnalyses(db, ids.otherOrg, ids.listInv, undefined, firstPage)).toBeUndefined();
    expect(await listAnalyses(db, ids.org, ids.theirInv, undefined, firstPage)).toBeUndefined();
    expect(await listAnalyses(db, ids.org, randomUUID(), undefined, firstPage)).toBeUndefined();
    expect((await listAnalyses(db, ids.org, ids.inv, undefined, firstPage))!.analyses.map((a) => a.analysis_id).sort()).toEqual(
      [ids.analysis, ids.empty].sort(),
    );
  });

  test('query validation names the bad parameter', () => {
    const query = analysisListRoute.query;
    const details = (value: unknown) => {
      try {
        parseWith(query, value);
      } catch (error) {
        return ((error as DomainError).details as { path: string }[]).map((d) => d.path);
      }
      return [];
    };
    expect(details({})).toEqual(['investigation_id']);
    expect(details({ investigation_id: 'nope' })).toEqual(['investigation_id']);
    expect(details({ investigation_id: ids.inv, limit: '0' })).toEqual(['limit']);
    expect(details({ investigation_id: ids.inv, limit: '201' })).toEqual(['limit']);
    expect(details({ investigation_id: ids.inv, cursor: '' })).toEqual(['cursor']);
    expect(parseWith(query, { investigation_id: ids.inv })).toEqual({ investigation_id: ids.inv, limit: 50 });
    expect(parseWith(query, { investigation_id: ids.inv, limit: '200', cursor: 'abc' })).toEqual({
      investigation_id: ids.inv,
      limit: 200,
      cursor: 'abc',
    });
  });
});
