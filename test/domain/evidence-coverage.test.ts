import fc from 'fast-check';
import { evidenceCoverage, storedEvidenceCoverage, type ConsideredChunkSource } from '#core/domain/evidence-coverage';

/** chunks of evidence items `e0…` and background documents `b0…`, several chunks per source allowed */
const chunk = fc.oneof(
  fc.nat({ max: 9 }).map((i): ConsideredChunkSource => ({ evidence_item_id: `e${i}`, background_document_id: null })),
  fc.nat({ max: 9 }).map((i): ConsideredChunkSource => ({ evidence_item_id: null, background_document_id: `b${i}` })),
);
const evidence = (id: string): ConsideredChunkSource => ({ evidence_item_id: id, background_document_id: null });
const background = (id: string): ConsideredChunkSource => ({ evidence_item_id: null, background_document_id: id });

describe('evidenceCoverage', () => {
  test('the issue-15 case: 1 evidence item and 3 background documents → 1 of 1, 3 background documents apart', () => {
    expect(evidenceCoverage([evidence('e1'), evidence('e1'), background('b1'), background('b2'), background('b3')], 1)).toEqual({
      considered: 1,
      total: 1,
      background_documents_considered: 3,
    });
  });

  test('no chunks: nothing considered', () => {
    expect(evidenceCoverage([], 4)).toEqual({ considered: 0, total: 4, background_documents_considered: 0 });
  });

  test('considered never passes total (an item deleted between retrieval and the count)', () => {
    expect(evidenceCoverage([evidence('e1'), evidence('e2')], 1).considered).toBe(1);
  });

  test.each([-1, 1.5, NaN, Infinity])('a total of %p is a RangeError', (total) => {
    expect(() => evidenceCoverage([], total)).toThrow(RangeError);
  });

  test('property: considered ≤ total, counts distinct evidence items only, background documents never in it', () => {
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 40 }), fc.nat({ max: 12 }), (chunks, total) => {
        const coverage = evidenceCoverage(chunks, total);
        const items = new Set(chunks.flatMap((c) => (c.evidence_item_id ? [c.evidence_item_id] : [])));
        const documents = new Set(chunks.flatMap((c) => (c.background_document_id ? [c.background_document_id] : [])));
        expect(coverage.considered).toBeLessThanOrEqual(coverage.total);
        expect(coverage.total).toBe(total);
        expect(coverage.considered).toBe(Math.min(items.size, total));
        expect(coverage.background_documents_considered).toBe(documents.size);
        // adding background-document chunks never changes considered
        const withMore = evidenceCoverage([...chunks, ...chunks.filter((c) => c.background_document_id), background('b-extra')], total);
        expect(withMore.considered).toBe(coverage.considered);
        // repeating chunks of the same items changes nothing
        expect(evidenceCoverage([...chunks, ...chunks], total)).toEqual(coverage);
      }),
    );
  });
});

describe('storedEvidenceCoverage', () => {
  test('a coverage stored before background documents were counted apart: considered capped, background count unknown', () => {
    expect(storedEvidenceCoverage({ considered: 4, total: 1 })).toEqual({ considered: 1, total: 1, background_documents_considered: null });
    expect(storedEvidenceCoverage({ considered: 1, total: 1, background_documents_considered: 3 })).toEqual({
      considered: 1,
      total: 1,
      background_documents_considered: 3,
    });
    expect(storedEvidenceCoverage(null)).toBeNull();
  });
});
