import fc from 'fast-check';
import { toPercent } from '#core/domain/percent';
import { retrievalQuality, SIMILARITY_BANDS, similarityBand, type SimilarityBandKey } from '#core/domain/similarity';

const RANK: Record<SimilarityBandKey, number> = { low: 0, somewhat: 1, relevant: 2, high: 3 };
const cosine = fc.double({ min: -1, max: 1, noNaN: true });

describe('toPercent', () => {
  test('nearest whole percent, halves up, without binary noise', () => {
    expect([0, 0.004, 0.005, 0.575, 0.285, 0.145, 0.8449, 0.845, 0.99, 1].map(toPercent)).toEqual([0, 0, 1, 58, 29, 15, 84, 85, 99, 100]);
  });
});

describe('similarityBand', () => {
  test.each([
    [1, 'high', 'High relevance', 'green', 100],
    [0.85, 'high', 'High relevance', 'green', 85],
    [0.845, 'high', 'High relevance', 'green', 85],
    [0.8449, 'relevant', 'Relevant', 'yellow', 84],
    [0.84, 'relevant', 'Relevant', 'yellow', 84],
    [0.7, 'relevant', 'Relevant', 'yellow', 70],
    [0.695, 'relevant', 'Relevant', 'yellow', 70],
    [0.6949, 'somewhat', 'Somewhat relevant', 'orange', 69],
    [0.6, 'somewhat', 'Somewhat relevant', 'orange', 60],
    [0.595, 'somewhat', 'Somewhat relevant', 'orange', 60],
    [0.5949, 'low', 'Low relevance', 'gray', 59],
    [0.59, 'low', 'Low relevance', 'gray', 59],
    [0, 'low', 'Low relevance', 'gray', 0],
  ])('%p → %s (%s, %s, %p %%)', (similarity, key, label, color, percent) => {
    expect(similarityBand(similarity)).toEqual({ key, label, color, percent });
  });

  test('negative cosine similarity shows as 0 % low; float overshoot of 1 shows as 100 % high', () => {
    expect(similarityBand(-0.3)).toEqual({ key: 'low', label: 'Low relevance', color: 'gray', percent: 0 });
    expect(similarityBand(1.0000000000000002).percent).toBe(100);
  });

  test.each([NaN, Infinity, -Infinity, 1.01, -1.01])('%p is a RangeError', (similarity) => {
    expect(() => similarityBand(similarity)).toThrow(RangeError);
  });

  test('property: the band is the one its displayed percent falls in, and percent is a whole 0..100', () => {
    fc.assert(
      fc.property(cosine, (s) => {
        const band = similarityBand(s);
        expect(Number.isInteger(band.percent) && band.percent >= 0 && band.percent <= 100).toBe(true);
        const expected = band.percent >= 85 ? 'high' : band.percent >= 70 ? 'relevant' : band.percent >= 60 ? 'somewhat' : 'low';
        expect(band.key).toBe(expected);
        expect(SIMILARITY_BANDS.find((b) => b.key === band.key)).toMatchObject({ label: band.label, color: band.color });
      }),
    );
  });

  test('property: a higher similarity never gets a lower band or percent', () => {
    fc.assert(
      fc.property(cosine, cosine, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(similarityBand(lo).percent).toBeLessThanOrEqual(similarityBand(hi).percent);
        expect(RANK[similarityBand(lo).key]).toBeLessThanOrEqual(RANK[similarityBand(hi).key]);
      }),
    );
  });
});

describe('retrievalQuality', () => {
  test('no chunks: counts 0, similarity stats null', () => {
    expect(retrievalQuality([], [])).toEqual({
      total: 0,
      included: 0,
      excluded: 0,
      mean_similarity: null,
      max_similarity: null,
      min_included_similarity: null,
      mean_included_similarity: null,
      band_counts: { high: 0, relevant: 0, somewhat: 0, low: 0 },
    });
  });

  test('mixed chunks', () => {
    const q = retrievalQuality([0.9, 0.8, 0.65, 0.3], [true, true, false, false]);
    expect(q).toMatchObject({
      total: 4,
      included: 2,
      excluded: 2,
      max_similarity: 0.9,
      min_included_similarity: 0.8,
      band_counts: { high: 1, relevant: 1, somewhat: 1, low: 1 },
    });
    expect(q.mean_similarity).toBeCloseTo(0.6625, 12);
    expect(q.mean_included_similarity).toBeCloseTo(0.85, 12);
  });

  test('nothing included: included stats null, the rest present', () => {
    expect(retrievalQuality([0.4, 0.5], [false, false])).toMatchObject({
      total: 2,
      included: 0,
      excluded: 2,
      max_similarity: 0.5,
      min_included_similarity: null,
      mean_included_similarity: null,
    });
  });

  test('mismatched lengths or an invalid similarity are RangeErrors', () => {
    expect(() => retrievalQuality([0.5], [])).toThrow(RangeError);
    expect(() => retrievalQuality([0.5, NaN], [true, true])).toThrow(RangeError);
  });

  test('property: counts add up and the stats are ordered', () => {
    const chunks = fc.array(fc.tuple(cosine, fc.boolean()), { maxLength: 50 });
    fc.assert(
      fc.property(chunks, (pairs) => {
        const q = retrievalQuality(
          pairs.map(([s]) => s),
          pairs.map(([, i]) => i),
        );
        expect(q.included + q.excluded).toBe(q.total);
        expect(Object.values(q.band_counts).reduce((a, b) => a + b, 0)).toBe(q.total);
        if (q.included > 0) {
          expect(q.min_included_similarity!).toBeLessThanOrEqual(q.mean_included_similarity! + 1e-12);
          expect(q.mean_included_similarity!).toBeLessThanOrEqual(q.max_similarity! + 1e-12);
        } else {
          expect(q.min_included_similarity).toBeNull();
        }
      }),
    );
  });
});
