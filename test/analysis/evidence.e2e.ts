/**
 * Opening evidence and citations through the twin's HTTP API (issue 15, items 2 and 3): the evidence
 * listing pages through the demo investigation and opens every kind of file in the storage viewer; a
 * citation of a generated analysis opens as its whole chunk in its passage (Gate B's "check a citation"),
 * and its attachment in the viewer; and the demo's question with nothing linked, whose best chunk is
 * under the similarity floor, still gets evidence: the closest chunks, with low_relevance. Organization
 * scoping and validation. Runs on PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { randomUUID } from 'node:crypto';
import { RETRIEVAL } from '#core/analysis/retrieval';
import type { EvidenceEntry } from '#core/evidence/listing';
import { fileViewLinkSchema } from '#core/files/wire';
import { analysisRetrievalChunkRoute } from '#core/analysis/contract';
import { investigationEvidenceRoute } from '#core/evidence/contract';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS } from '#core/seed/demo';
import type { TwinTest } from '../support/twin';

export const evidenceAndPassages = (e2e: TwinTest): void => {
  const { call } = e2e;
  let investigator = '';
  let harbor = '';
  const INVESTIGATION = DEMO_INVESTIGATION_IDS.northwind;

  beforeAll(async () => {
    [investigator, harbor] = await Promise.all([e2e.token('investigator'), e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor)]);
  });

  const questions = async (): Promise<{ question_id: string; text: string; linked_evidence_count: number }[]> =>
    (await call('GET', `/api/investigations/${INVESTIGATION}`, investigator)).body.questions;

  const generate = async (questionId: string) => {
    const created = await call('POST', '/api/analysis', investigator, {
      investigation_id: INVESTIGATION,
      analysis_type: 'question',
      question_id: questionId,
    });
    expect(created.status).toBe(202);
    const analysis = await e2e.pollUntilGenerated(created.body.analysis_id, investigator);
    expect(['complete', 'checking', 'verified', 'quality_unavailable']).toContain(analysis.generation_status);
    return analysis;
  };

  const openLink = async (viewPath: string) => {
    const res = await call('GET', `${viewPath}&redirect=false`, investigator);
    expect(res.status).toBe(200);
    const link = fileViewLinkSchema.parse(res.body);
    expect((await fetch(link.url)).status).toBe(200); // the twin's public S3 endpoint, where its gateway maps presigned URLs
    return link;
  };

  describe('GET /api/investigations/{investigation_id}/evidence', () => {
    test('pages through every evidence item with its attachments, then the background documents; each file opens in the viewer', async () => {
      const items: EvidenceEntry[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await call(
          'GET',
          `/api/investigations/${INVESTIGATION}/evidence?limit=20${cursor ? `&cursor=${cursor}` : ''}`,
          investigator,
        );
        expect(res.status).toBe(200);
        expect(investigationEvidenceRoute.response.safeParse(res.body).success).toBe(true);
        expect(res.body.items.length).toBeLessThanOrEqual(20);
        items.push(...res.body.items);
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThan(2);

      const db = e2e.twin.database.db;
      const evidence = items.filter((i) => i.kind === 'evidence_item');
      const documents = items.filter((i) => i.kind === 'background_document');
      const counts = await db
        .selectFrom('investigations')
        .select(['evidence_count', 'attachment_count'])
        .where('id', '=', INVESTIGATION)
        .executeTakeFirstOrThrow();
      expect(evidence).toHaveLength(counts.evidence_count);
      expect(evidence.flatMap((e) => e.attachments)).toHaveLength(counts.attachment_count);
      expect(items.indexOf(documents[0]!)).toBe(evidence.length); // evidence items first
      const storedDocuments = await db
        .selectFrom('background_documents')
        .select(['id', 'included_for_ai'])
        .where('investigation_id', '=', INVESTIGATION)
        .execute();
      expect(documents.map((d) => [d.background_document_id, d.included]).sort()).toEqual(
        storedDocuments.map((d) => [d.id, d.included_for_ai]).sort(),
      );

      const invoice = evidence.flatMap((e) => e.attachments).find((a) => a.file_name === 'invoice_BIS-1041.txt')!;
      expect(await openLink(invoice.view_path)).toMatchObject({
        kind: 'attachment',
        id: invoice.attachment_id,
        file_name: invoice.file_name,
        size_bytes: invoice.size_bytes,
      });
      expect(await openLink(documents[0]!.view_path)).toMatchObject({
        kind: 'background_document',
        id: documents[0]!.background_document_id,
      });
    });

    test("another organization's investigation is not found; bad paging is a 400; no token is a 401", async () => {
      expect((await call('GET', `/api/investigations/${INVESTIGATION}/evidence`, harbor)).status).toBe(404);
      expect((await call('GET', `/api/investigations/${randomUUID()}/evidence`, investigator)).status).toBe(404);
      for (const query of ['limit=0', 'limit=201', 'limit=x', 'cursor=not-a-cursor']) {
        const res = await call('GET', `/api/investigations/${INVESTIGATION}/evidence?${query}`, investigator);
        expect(res.status).toBe(400);
        expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([query.split('=')[0]]);
      }
      expect((await call('GET', `/api/investigations/${INVESTIGATION}/evidence`)).status).toBe(401);
    });
  });

  describe('GET /api/analysis/{analysis_id}/retrieval/{chunk_id}', () => {
    let analysis: { analysis_id: string; low_relevance: boolean; result: { findings: { citations: string[] }[] } };
    beforeAll(async () => {
      const linked = (await questions()).find((q) => q.linked_evidence_count > 0)!;
      analysis = await generate(linked.question_id);
    }, 120_000);

    test('a cited chunk opens whole, in its passage; the Gate B step follows; an attachment chunk names the file the viewer opens', async () => {
      expect(analysis.low_relevance).toBe(false);
      const cited = analysis.result.findings.flatMap((f) => f.citations)[0]!;
      const res = await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval/${cited}`, investigator);
      expect(res.status).toBe(200);
      expect(analysisRetrievalChunkRoute.response.safeParse(res.body).success).toBe(true);
      const { chunk, passage } = res.body;
      const stored = await e2e.twin.database.db.selectFrom('text_chunks').select('text').where('id', '=', cited).executeTakeFirstOrThrow();
      expect(chunk).toMatchObject({ chunk_id: cited, included: true, text: stored.text, text_truncated: false });
      expect(passage.text.slice(passage.chunk_start, passage.chunk_end)).toBe(stored.text);

      for (const step of ['detail_reviewed', 'citation_checked']) {
        expect((await call('POST', `/api/analysis/${analysis.analysis_id}/engagement`, investigator, { step })).status).toBe(200);
      }

      const { chunks } = (await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval`, investigator)).body;
      for (const c of chunks) expect(c.attachment_id === null).toBe(c.type !== 'attachment');
      const attachment = chunks.find((c: { type: string }) => c.type === 'attachment');
      expect(attachment).toBeDefined();
      const opened = (await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval/${attachment.chunk_id}`, investigator)).body;
      expect(opened.chunk.attachment_id).toBe(attachment.attachment_id);
      expect(await openLink(`/api/storage/view?attachment_id=${attachment.attachment_id}`)).toMatchObject({
        file_name: attachment.attachment_file_name,
      });
    });

    test("a chunk not among the analysis's retrieval, or another organization's caller: 404; a malformed id: 400", async () => {
      const other = await e2e.twin.database.db
        .selectFrom('text_chunks')
        .select('id')
        .where('investigation_id', '=', DEMO_INVESTIGATION_IDS.harbor)
        .executeTakeFirstOrThrow();
      expect((await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval/${other.id}`, investigator)).status).toBe(404);
      expect((await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval/${randomUUID()}`, investigator)).status).toBe(404);
      const cited = analysis.result.findings.flatMap((f) => f.citations)[0]!;
      expect((await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval/${cited}`, harbor)).status).toBe(404);
      const bad = await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval/nope`, investigator);
      expect(bad.status).toBe(400);
      expect(bad.body.error.details).toEqual([{ path: 'chunk_id', message: 'must be a UUID' }]);
      for (const around of ['0', '11', 'x']) {
        const refused = await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval/${cited}?around=${around}`, investigator);
        expect([refused.status, refused.body.error.details]).toEqual([
          400,
          [{ path: 'around', message: 'must be a whole number from 1 to 10' }],
        ]);
      }
    });

    test('more of the document on demand: `around` widens the passage by whole chunks of the same source, the chunk still marked', async () => {
      // the demo's documents are short: the cited chunk's source gains four pages of text after it, so there is more to show
      const db = e2e.twin.database.db;
      const cited = await db
        .selectFrom('text_chunks')
        .selectAll()
        .where('id', '=', analysis.result.findings.flatMap((f) => f.citations)[0]!)
        .executeTakeFirstOrThrow();
      const last = await db
        .selectFrom('text_chunks')
        .select((eb) => eb.fn.max('chunk_index').as('last'))
        .where('embedding_source_id', '=', cited.embedding_source_id)
        .executeTakeFirstOrThrow();
      for (let n = 1; n <= 4; n++)
        await db
          .insertInto('text_chunks')
          .values({
            investigation_id: cited.investigation_id,
            embedding_source_id: cited.embedding_source_id,
            source_type: cited.source_type,
            evidence_item_id: cited.evidence_item_id,
            background_document_id: cited.background_document_id,
            chunk_index: Number(last.last) + n,
            text: `Appended page ${n} of the same document, for the wider passage.`,
          })
          .execute();
      const sized = { id: cited.id };
      const at = async (around?: number) =>
        (await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval/${sized.id}${around ? `?around=${around}` : ''}`, investigator))
          .body;
      const [one, three] = [await at(), await at(3)];
      expect(three.passage.text.length).toBeGreaterThan(one.passage.text.length);
      for (const { passage, chunk } of [one, three]) expect(passage.text.slice(passage.chunk_start, passage.chunk_end)).toBe(chunk.text);
      expect(three.passage.text).toContain(one.passage.text.slice(one.passage.chunk_start, one.passage.chunk_end));
    });
  });

  test('the demo question with nothing linked, every chunk under the 0.20 floor: the closest are included and the analysis is low_relevance', async () => {
    const unlinked = (await questions()).find((q) => q.linked_evidence_count === 0)!;
    expect(unlinked.text).toMatch(/other Northwind employees/);
    const analysis = await generate(unlinked.question_id);
    expect(analysis).toMatchObject({ low_relevance: true, error_message: null });
    expect(analysis.result.findings.length).toBeGreaterThan(0);

    const retrieval = (await call('GET', `/api/analysis/${analysis.analysis_id}/retrieval`, investigator)).body;
    expect(retrieval.low_relevance).toBe(true);
    expect(Math.max(...retrieval.chunks.map((c: { similarity: number }) => c.similarity))).toBeLessThan(RETRIEVAL.minSimilarity);
    expect(retrieval.summary.included).toBe(RETRIEVAL.lowRelevanceIncluded);
    expect(retrieval.chunks.slice(0, RETRIEVAL.lowRelevanceIncluded).every((c: { included: boolean }) => c.included)).toBe(true);
    const included = new Set(
      retrieval.chunks.filter((c: { included: boolean }) => c.included).map((c: { chunk_id: string }) => c.chunk_id),
    );
    for (const finding of analysis.result.findings) for (const id of finding.citations) expect(included.has(id)).toBe(true);
  }, 120_000);
};
