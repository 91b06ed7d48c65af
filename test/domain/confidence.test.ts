import fc from 'fast-check';
import {
  baseConfidence,
  compareConfidence,
  CONFIDENCE_LEVELS,
  confidenceExplained,
  confidenceRank,
  isStrongQuality,
  qualityConfidence,
  retrievalSignal,
  type QualityConfidence,
} from '#core/domain/confidence';

// Random fractions, with the band edges (and the values either side of them) drawn often.
const EDGES = [0, 0.5949, 0.595, 0.6, 0.6949, 0.695, 0.7, 0.8449, 0.845, 0.85, 1];
const unit = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...EDGES));
const similarity = fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(...EDGES));
const retrieval = fc.option(similarity, { nil: null });
const input = fc.record({ faithfulness: unit, coverage: unit, retrievalSimilarity: retrieval });
const sorted = (a: number, b: number): [number, number] => (a <= b ? [a, b] : [b, a]);
const rank = confidenceRank;

describe('ordering', () => {
  test('established > probable > possible > insufficient', () => {
    expect(CONFIDENCE_LEVELS.map(rank)).toEqual([3, 2, 1, 0]);
    const levels: QualityConfidence[] = ['possible', 'established', 'insufficient', 'probable'];
    expect(levels.sort(compareConfidence)).toEqual(['insufficient', 'possible', 'probable', 'established']);
  });
});

describe('baseConfidence at the edges (displayed whole percents; the weaker check decides)', () => {
  test.each([
    [1, 1, 'established'],
    [0.85, 0.85, 'established'],
    [0.845, 0.99, 'established'], // shows 85 %
    [0.8449, 0.99, 'probable'], // shows 84 %
    [0.99, 0.8449, 'probable'],
    [0.7, 0.7, 'probable'],
    [0.695, 1, 'probable'], // shows 70 %
    [0.6949, 1, 'possible'], // shows 69 %
    [0.6, 0.6, 'possible'],
    [0.595, 1, 'possible'], // shows 60 %
    [0.5949, 1, 'insufficient'], // shows 59 %
    [1, 0, 'insufficient'],
    [0, 0, 'insufficient'],
  ])('faithfulness %p, coverage %p → %s', (f, c, level) => {
    expect(baseConfidence(f, c)).toBe(level);
  });
});

describe('qualityConfidence examples', () => {
  const q = (faithfulness: number, coverage: number, retrievalSimilarity: number | null) =>
    qualityConfidence({ faithfulness, coverage, retrievalSimilarity });

  test('no retrieval (null) never softens', () => {
    expect(q(0.9, 0.9, null)).toMatchObject({ level: 'established', base: 'established', softened_by_retrieval: false });
  });

  test('retrieval at 70 % (the Relevant band) is not weak; at 69 % it is', () => {
    expect(q(0.9, 0.9, 0.7)).toMatchObject({ level: 'established', softened_by_retrieval: false });
    expect(q(0.9, 0.9, 0.695)).toMatchObject({ level: 'established', softened_by_retrieval: false });
    expect(q(0.9, 0.9, 0.6949)).toMatchObject({ level: 'probable', base: 'established', softened_by_retrieval: true });
  });

  test('weak retrieval lowers one step at most, never to insufficient', () => {
    expect(q(0.9, 0.9, 0)).toMatchObject({ level: 'probable', softened_by_retrieval: true });
    expect(q(0.75, 0.8, 0.1)).toMatchObject({ level: 'possible', base: 'probable', softened_by_retrieval: true });
    expect(q(0.65, 0.8, 0)).toMatchObject({ level: 'possible', base: 'possible', softened_by_retrieval: false });
    expect(q(0.3, 0.8, 0)).toMatchObject({ level: 'insufficient', base: 'insufficient', softened_by_retrieval: false });
    expect(q(0.9, 0.9, -0.4)).toMatchObject({ level: 'probable', softened_by_retrieval: true });
  });

  test('the reason names the numbers that decided', () => {
    expect(q(0.92, 0.88, 0.64).reason).toBe(
      'Faithfulness 92 % and coverage 88 % give established; retrieval similarity 64 % is below 70 %, so confidence is lowered one step to probable.',
    );
    expect(q(0.65, 0.9, 0.2).reason).toMatch(/retrieval alone cannot lower possible/);
    expect(q(0.9, 0.9, null).reason).toMatch(/no retrieval similarity/);
  });

  test.each([
    [NaN, 0.5, 0.5],
    [0.5, NaN, 0.5],
    [0.5, 0.5, NaN],
    [-0.01, 0.5, 0.5],
    [0.5, 1.01, 0.5],
    [Infinity, 0.5, null],
    [0.5, 0.5, 1.5],
    [0.5, 0.5, -Infinity],
  ])('faithfulness %p, coverage %p, retrieval %p is a RangeError', (f, c, r) => {
    expect(() => q(f, c, r)).toThrow(RangeError);
  });

  test('baseConfidence validates too', () => {
    expect(() => baseConfidence(NaN, 1)).toThrow(RangeError);
    expect(() => baseConfidence(1, 2)).toThrow(RangeError);
  });
});

describe('retrievalSignal', () => {
  test('null stats → null; included mean when something was included; 0 when nothing was', () => {
    expect(retrievalSignal(null)).toBeNull();
    expect(retrievalSignal({ mean_included_similarity: 0.77 })).toBe(0.77);
    expect(retrievalSignal({ mean_included_similarity: null })).toBe(0);
  });
});

describe('qualityConfidence properties', () => {
  test('the level is the base or exactly one step below it', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = qualityConfidence(i);
        expect([0, 1]).toContain(rank(r.base) - rank(r.level));
        expect(r.base).toBe(baseConfidence(i.faithfulness, i.coverage));
      }),
    );
  });

  test('retrieval alone never produces insufficient', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = qualityConfidence(i);
        if (r.base !== 'insufficient') expect(r.level).not.toBe('insufficient');
      }),
    );
  });

  test('strong faithfulness and coverage (both ≥ 0.70) give at least possible', () => {
    fc.assert(
      fc.property(input, (i) => {
        const strong = i.faithfulness >= 0.7 && i.coverage >= 0.7;
        if (strong) expect(isStrongQuality(i.faithfulness, i.coverage)).toBe(true);
        if (isStrongQuality(i.faithfulness, i.coverage)) expect(rank(qualityConfidence(i).level)).toBeGreaterThanOrEqual(rank('possible'));
      }),
    );
  });

  test('raising faithfulness never lowers the level', () => {
    fc.assert(
      fc.property(unit, unit, unit, retrieval, (a, b, coverage, retrievalSimilarity) => {
        const [lo, hi] = sorted(a, b);
        expect(rank(qualityConfidence({ faithfulness: lo, coverage, retrievalSimilarity }).level)).toBeLessThanOrEqual(
          rank(qualityConfidence({ faithfulness: hi, coverage, retrievalSimilarity }).level),
        );
      }),
    );
  });

  test('raising coverage never lowers the level', () => {
    fc.assert(
      fc.property(unit, unit, unit, retrieval, (a, b, faithfulness, retrievalSimilarity) => {
        const [lo, hi] = sorted(a, b);
        expect(rank(qualityConfidence({ faithfulness, coverage: lo, retrievalSimilarity }).level)).toBeLessThanOrEqual(
          rank(qualityConfidence({ faithfulness, coverage: hi, retrievalSimilarity }).level),
        );
      }),
    );
  });

  test('raising retrieval similarity never lowers the level (and no retrieval is never below any)', () => {
    fc.assert(
      fc.property(unit, unit, similarity, similarity, (faithfulness, coverage, a, b) => {
        const [lo, hi] = sorted(a, b);
        const at = (retrievalSimilarity: number | null) => rank(qualityConfidence({ faithfulness, coverage, retrievalSimilarity }).level);
        expect(at(lo)).toBeLessThanOrEqual(at(hi));
        expect(at(hi)).toBeLessThanOrEqual(at(null));
      }),
    );
  });

  test('without softening the level is the base; with it, one step below', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = qualityConfidence(i);
        if (r.softened_by_retrieval) expect(rank(r.level)).toBe(rank(r.base) - 1);
        else expect(r.level).toBe(r.base);
      }),
    );
  });

  test('softening happens only for weak retrieval (below 70 % displayed)', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = qualityConfidence(i);
        if (i.retrievalSimilarity === null || Math.round(i.retrievalSimilarity * 100) >= 71) expect(r.softened_by_retrieval).toBe(false);
      }),
    );
  });
});

describe('confidenceExplained (the band and its reason, from what an analysis stores)', () => {
  test('null until both scores are stored', () => {
    expect(confidenceExplained({ faithfulness: null, coverage: 0.9, retrieval: null })).toBeNull();
    expect(confidenceExplained({ faithfulness: 0.9, coverage: null, retrieval: { mean_included_similarity: 0.9 } })).toBeNull();
  });

  test('names the scores, and the step retrieval took off when it did', () => {
    expect(confidenceExplained({ faithfulness: 0.92, coverage: 0.88, retrieval: { mean_included_similarity: 0.64 } })).toEqual({
      level: 'probable',
      reason:
        'Faithfulness 92 % and coverage 88 % give established; retrieval similarity 64 % is below 70 %, so confidence is lowered one step to probable.',
    });
    expect(confidenceExplained({ faithfulness: 0.92, coverage: 0.88, retrieval: { mean_included_similarity: 0.9 } })).toEqual({
      level: 'established',
      reason: 'Faithfulness 92 % and coverage 88 % give established; retrieval similarity 90 % is not weak.',
    });
    // retrieval ran but nothing was included: the weakest signal, still one step at most
    expect(confidenceExplained({ faithfulness: 0.75, coverage: 0.8, retrieval: { mean_included_similarity: null } })?.reason).toMatch(
      /retrieval similarity 0 % is below 70 %, so confidence is lowered one step to possible/,
    );
    expect(confidenceExplained({ faithfulness: 0.5, coverage: 0.9, retrieval: null })).toEqual({
      level: 'insufficient',
      reason: 'Faithfulness 50 % and coverage 90 % give insufficient; no retrieval similarity to weigh.',
    });
  });

  test('always the band the check stored (qualityConfidence over the same inputs)', () => {
    fc.assert(
      fc.property(input, ({ faithfulness, coverage, retrievalSimilarity }) => {
        const retrievalStats = retrievalSimilarity === null ? null : { mean_included_similarity: Math.max(0, retrievalSimilarity) };
        expect(confidenceExplained({ faithfulness, coverage, retrieval: retrievalStats })).toEqual({
          level: qualityConfidence({ faithfulness, coverage, retrievalSimilarity: retrievalSignal(retrievalStats) }).level,
          reason: qualityConfidence({ faithfulness, coverage, retrievalSimilarity: retrievalSignal(retrievalStats) }).reason,
        });
      }),
    );
  });
});
