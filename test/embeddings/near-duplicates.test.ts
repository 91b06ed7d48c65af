/**
 * Near-duplicate passages: the rule (pure) — shingles over normalised text, Jaccard, the LSH keys' recall at and
 * below the threshold — and the groups on the database (PGlite, or PostgreSQL with TEST_DATABASE_URL) as text comes
 * in: the same passage in two items is one group, a changed word or two still is, another passage is not; a
 * duplicate of an embedded passage is embedded at once; a deleted representative's group elects its oldest member;
 * the retrieval view names the other items holding a passage, and evidence coverage counts them.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { OrgCaller } from '#core/auth/caller';
import { getRetrieval } from '#core/analysis/retrieval-view';
import { groupMembers } from '#core/embeddings/chunk-store';
import { jaccard, lshBands, NEAR_DUPLICATE_JACCARD, representativeFor, shinglesOf, wordsOf } from '#core/embeddings/near-duplicates';
import { createEvidence, deleteEvidence } from '#core/ingestion/evidence';
import { createInvestigation } from '#core/ingestion/investigations';
import { seededRandom } from '../support/random';
import { useTestDatabase } from '../support/db';

const words = (random: () => number, n: number) => Array.from({ length: n }, () => `w${Math.floor(random() * 5000)}`);

describe('the rule', () => {
  it('reads words over case, accents, punctuation and quote markers', () => {
    expect(wordsOf('> Zoë said: "The ORDER, split in two!"')).toEqual(['zoe', 'said', 'the', 'order', 'split', 'in', 'two']);
    expect(jaccard(shinglesOf('> The order was split in two.'), shinglesOf('the ORDER was split, in two'))).toBe(1);
  });

  it('groups a passage with one or two words changed in a hundred, not one with five in a hundred', () => {
    const random = seededRandom(7);
    const base = words(random, 100);
    const changed = (n: number) =>
      base.map((w, i) => (i % Math.floor(100 / n) === 5 && i / Math.floor(100 / n) < n ? `x${i}` : w)).join(' ');
    const text = base.join(' ');
    expect(jaccard(shinglesOf(text), shinglesOf(changed(1)))).toBeGreaterThanOrEqual(NEAR_DUPLICATE_JACCARD);
    expect(jaccard(shinglesOf(text), shinglesOf(changed(2)))).toBeGreaterThanOrEqual(NEAR_DUPLICATE_JACCARD);
    expect(jaccard(shinglesOf(text), shinglesOf(changed(5)))).toBeLessThan(NEAR_DUPLICATE_JACCARD);
  });

  it('LSH keys find near-duplicates (J ≥ 0.9) every time and unrelated passages almost never', () => {
    const random = seededRandom(11);
    let found = 0;
    let falseCandidates = 0;
    for (let i = 0; i < 100; i++) {
      const base = words(random, 120);
      const near = [...base];
      near[40] = 'changed';
      const a = shinglesOf(base.join(' '));
      const b = shinglesOf(near.join(' '));
      expect(jaccard(a, b)).toBeGreaterThanOrEqual(NEAR_DUPLICATE_JACCARD);
      const keys = new Set(lshBands(a));
      if (lshBands(b).some((k) => keys.has(k))) found++;
      if (lshBands(shinglesOf(words(random, 120).join(' '))).some((k) => keys.has(k))) falseCandidates++;
    }
    expect(found).toBe(100);
    expect(falseCandidates).toBe(0);
  });

  it('joins the most similar candidate sharing a key, never one without a shared key or below the threshold', () => {
    const text = 'the buyer asked the vendor to split the order into two invoices of twenty thousand each';
    const chunk = { shingles: shinglesOf(text), bands: lshBands(shinglesOf(text)) };
    const same = { id: 'same', shingles: shinglesOf(`${text}.`), bands: chunk.bands };
    const hidden = { id: 'no-shared-key', shingles: chunk.shingles, bands: [1, 2, 3] };
    const other = { id: 'other', shingles: shinglesOf('an unrelated note about travel expenses in March'), bands: chunk.bands };
    expect(representativeFor(chunk, [other, hidden, same])).toBe('same');
    expect(representativeFor(chunk, [other, hidden])).toBeUndefined();
    expect(lshBands(new Set())).toEqual([]);
  });
});

describe('groups as text comes in', () => {
  const db = useTestDatabase();
  let caller: OrgCaller;
  let investigation: string;
  const deps = () => ({
    db,
    presign: async () => ({ url: 'u', method: 'PUT' as const, headers: {}, expires_at: new Date().toISOString() }),
    wake: async () => undefined,
  });
  const PASSAGE =
    'On 4 March the buyer asked the vendor to split the purchase order for 240 laptops into two invoices of 120 each, ' +
    'so that neither passed the approval threshold of 50,000; the vendor agreed and sent the second invoice a day later.';

  beforeAll(async () => {
    const org = (
      await db
        .insertInto('organizations')
        .values({ name: `Dup ${randomUUID()}` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    caller = { subject: `s-${randomUUID()}`, email: `${randomUUID()}@example.com`, role: 'investigator', organizationId: org };
    investigation = (await createInvestigation(db, caller, { title: 'Duplicates' })).investigation_id;
  });

  const item = async (title: string, content: string) =>
    (await createEvidence(deps(), caller, investigation, { title, content })).evidence.evidence_id;
  const chunksOf = (evidenceId: string) =>
    db
      .selectFrom('text_chunks')
      .select(['id', 'duplicate_of', 'embedding', 'embedded_at'])
      .where('evidence_item_id', '=', evidenceId)
      .execute();

  it('the same passage in three items is one group; a forward with a word changed joins it; another passage does not', async () => {
    const original = await item('E-mail 1', PASSAGE);
    const [representative] = await chunksOf(original);
    expect(representative!.duplicate_of).toBeNull();
    const quoted = await item('E-mail 2 (reply)', `> ${PASSAGE.toUpperCase()}`);
    const forwarded = await item('E-mail 3 (forward)', PASSAGE.replace('240 laptops', '240 notebooks'));
    const other = await item('Travel claim', 'A claim for a hotel in Lisbon in March, two nights, approved by the finance lead.');
    expect((await chunksOf(quoted))[0]!.duplicate_of).toBe(representative!.id);
    expect((await chunksOf(forwarded))[0]!.duplicate_of).toBe(representative!.id);
    expect((await chunksOf(other))[0]!.duplicate_of).toBeNull();
    const members = await groupMembers(db, [representative!.id]);
    expect(members.map((m) => m.title).sort()).toEqual(['E-mail 2 (reply)', 'E-mail 3 (forward)']);
  });

  it("a duplicate of an embedded passage takes its vector at once; a deleted representative's group elects its oldest member", async () => {
    const MEMO = 'The auditor found that the warehouse received 180 laptops, not 240, and that the missing 60 were never invoiced back.';
    const first = await item('Memo A', `${MEMO} Filed by the auditor.`);
    const [representative] = await chunksOf(first);
    await db
      .updateTable('text_chunks')
      .set({ embedding: sql`array_fill(0.5::real, array[1024])::vector`, embedding_model: 'model', embedded_at: new Date() })
      .where('id', '=', representative!.id)
      .execute();
    const second = await item('Memo B', `${MEMO} Filed by the auditor!`);
    const third = await item('Memo C', `${MEMO} filed by the auditor`);
    const [copy] = await chunksOf(second);
    expect(copy).toMatchObject({ duplicate_of: representative!.id, embedding: expect.any(String) });
    expect(copy!.embedded_at).not.toBeNull();
    // no claim will take it: its source is embedded at once, so the item is ready without waiting for a sweep
    const source = await db
      .selectFrom('embedding_sources')
      .select('status')
      .where('evidence_item_id', '=', second)
      .executeTakeFirstOrThrow();
    expect(source.status).toBe('embedded');

    await deleteEvidence({ db, files: { remove: async () => undefined } }, caller.organizationId, investigation, first);
    const [promoted] = await chunksOf(second);
    const [member] = await chunksOf(third);
    expect(promoted!.duplicate_of).toBeNull();
    expect(member!.duplicate_of).toBe(promoted!.id);
  });

  it('the retrieval view names the other items holding a passage; evidence coverage counts them', async () => {
    const sourceItem = await item(
      'Invoice note 1',
      'The invoice INV-77 was approved by the requester himself, against policy 7.2, on 9 April.',
    );
    const copies = [
      await item('Invoice note 2', 'The invoice INV-77 was approved by the requester himself, against policy 7.2, on 9 April.'),
    ];
    copies.push(await item('Invoice note 3', 'the invoice inv 77 was approved by the requester himself against policy 7 2 on 9 april'));
    const [representative] = await chunksOf(sourceItem);
    const analysis = (
      await db
        .insertInto('analyses')
        .values({ investigation_id: investigation, analysis_type: 'summary', generation_status: 'complete' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('retrieval_records')
      .values({
        analysis_id: analysis,
        rank: 1,
        chunk_id: representative!.id,
        source_type: 'content',
        evidence_item_id: sourceItem,
        similarity: 0.8,
        included: true,
      })
      .execute();
    const view = await getRetrieval(db, caller.organizationId, analysis);
    expect(view!.chunks[0]!.duplicates).toEqual({
      count: 2,
      evidence: [
        { evidence_id: copies[0], title: 'Invoice note 2' },
        { evidence_id: copies[1], title: 'Invoice note 3' },
      ],
    });
  });
});
