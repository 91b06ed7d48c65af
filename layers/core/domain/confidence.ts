/**
 * Quality confidence (SPEC "Analysis": derived from faithfulness and coverage, softened by retrieval
 * similarity; "Limits": retrieval can lower it by at most one step, cannot alone produce insufficient,
 * and strong faithfulness and coverage give at least possible).
 *
 * Thresholds (on the whole percent shown to the user, like the similarity bands, so a badge never
 * contradicts the scores beside it; see percent.ts):
 *   base = the weaker of faithfulness and coverage — an analysis is only as trustworthy as its weakest
 *   check: a fully supported answer to half the question, or a complete answer half of whose claims are
 *   unsupported, are both doubtful.
 *     ≥ 85 %  established   (same cut as 'High relevance')
 *     ≥ 70 %  probable      (same cut as 'Relevant')
 *     ≥ 60 %  possible      (same cut as 'Somewhat relevant'; below it, roughly two claims in five lack
 *                            support or two aspects in five are missing: too weak to lean on)
 *     else    insufficient
 *   "Strong faithfulness and coverage" = both ≥ 70 %, i.e. a base of probable or better.
 *   "Weak retrieval" = the mean similarity of the included chunks is below the 'Relevant' band (< 70 %
 *   displayed). Null (no retrieval ran, so there is no signal) never softens.
 *   Softening: weak retrieval lowers the base one step, but never to insufficient — a base of possible
 *   stays possible and a base of insufficient stays insufficient (that comes from the checks alone).
 *
 * Pure: no I/O, no clock, no environment.
 */
import { assertInRange, toPercent } from './percent';
import { assertSimilarity, similarityPercent, type RetrievalQuality } from './similarity';

/** Levels from strongest to weakest. */
export const CONFIDENCE_LEVELS = ['established', 'probable', 'possible', 'insufficient'] as const;
export type QualityConfidence = (typeof CONFIDENCE_LEVELS)[number];

/** Rank for ordering: insufficient 0 < possible 1 < probable 2 < established 3. */
export const confidenceRank = (level: QualityConfidence): number => CONFIDENCE_LEVELS.length - 1 - CONFIDENCE_LEVELS.indexOf(level);

/** Negative when a is weaker than b, 0 when equal, positive when stronger (usable with Array.sort). */
export const compareConfidence = (a: QualityConfidence, b: QualityConfidence): number => confidenceRank(a) - confidenceRank(b);

/** Minimum displayed percent of min(faithfulness, coverage) for each level above insufficient. */
const CONFIDENCE_THRESHOLDS = { established: 85, probable: 70, possible: 60 } as const;
/** Both faithfulness and coverage at or above this displayed percent count as strong. */
const STRONG_QUALITY_PERCENT = CONFIDENCE_THRESHOLDS.probable;
/** Mean included-chunk similarity below this displayed percent (the 'Relevant' band) is weak retrieval. */
const WEAK_RETRIEVAL_BELOW_PERCENT = 70;

const unit = (name: string, value: number): number => assertInRange(name, value, 0, 1);

/** The level from the two quality checks alone (both 0..1; RangeError otherwise). */
export const baseConfidence = (faithfulness: number, coverage: number): QualityConfidence => {
  const weakest = Math.min(toPercent(unit('faithfulness', faithfulness)), toPercent(unit('coverage', coverage)));
  if (weakest >= CONFIDENCE_THRESHOLDS.established) return 'established';
  if (weakest >= CONFIDENCE_THRESHOLDS.probable) return 'probable';
  if (weakest >= CONFIDENCE_THRESHOLDS.possible) return 'possible';
  return 'insufficient';
};

/** Whether both checks are strong (the spec's guarantee of at least possible applies). */
export const isStrongQuality = (faithfulness: number, coverage: number): boolean =>
  Math.min(toPercent(unit('faithfulness', faithfulness)), toPercent(unit('coverage', coverage))) >= STRONG_QUALITY_PERCENT;

export interface QualityConfidenceInput {
  faithfulness: number;
  coverage: number;
  /** Mean similarity of the included chunks (see retrievalSignal), or null when no retrieval ran. */
  retrievalSimilarity: number | null;
}

export interface QualityConfidenceResult {
  level: QualityConfidence;
  /** The level from faithfulness and coverage alone. */
  base: QualityConfidence;
  /** True exactly when weak retrieval lowered the level (then level is one step below base). */
  softened_by_retrieval: boolean;
  /** One sentence a person can read, naming the numbers that decided. */
  reason: string;
}

const oneStepDown = (level: QualityConfidence): QualityConfidence =>
  CONFIDENCE_LEVELS[Math.min(CONFIDENCE_LEVELS.indexOf(level) + 1, CONFIDENCE_LEVELS.length - 1)]!;

export const qualityConfidence = ({ faithfulness, coverage, retrievalSimilarity }: QualityConfidenceInput): QualityConfidenceResult => {
  const base = baseConfidence(faithfulness, coverage);
  const scores = `faithfulness ${toPercent(faithfulness)} % and coverage ${toPercent(coverage)} % give ${base}`;
  if (retrievalSimilarity === null) {
    return { level: base, base, softened_by_retrieval: false, reason: `${capitalize(scores)}; no retrieval similarity to weigh.` };
  }
  const retrieval = similarityPercent(assertSimilarity(retrievalSimilarity, 'retrievalSimilarity'));
  if (retrieval >= WEAK_RETRIEVAL_BELOW_PERCENT) {
    return {
      level: base,
      base,
      softened_by_retrieval: false,
      reason: `${capitalize(scores)}; retrieval similarity ${retrieval} % is not weak.`,
    };
  }
  const weak = `retrieval similarity ${retrieval} % is below ${WEAK_RETRIEVAL_BELOW_PERCENT} %`;
  // Retrieval alone may never produce insufficient: possible (and insufficient) stay where they are.
  if (confidenceRank(base) <= confidenceRank('possible')) {
    return {
      level: base,
      base,
      softened_by_retrieval: false,
      reason: `${capitalize(scores)}; ${weak}, but retrieval alone cannot lower ${base}.`,
    };
  }
  const level = oneStepDown(base);
  return {
    level,
    base,
    softened_by_retrieval: true,
    reason: `${capitalize(scores)}; ${weak}, so confidence is lowered one step to ${level}.`,
  };
};

/**
 * The retrieval input for qualityConfidence from the stored stats: null when no retrieval was recorded
 * (no signal), the mean similarity of the included chunks otherwise, and 0 when retrieval ran but
 * nothing was included (the weakest signal there is; it still lowers confidence by one step at most).
 */
export const retrievalSignal = (stats: Pick<RetrievalQuality, 'mean_included_similarity'> | null): number | null =>
  stats === null ? null : (stats.mean_included_similarity ?? 0);

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The band of a checked analysis and how it was reached, in words, from what is stored (its scores and its retrieval
 * statistics): the same rule the check applied, so it names the scores and the one step retrieval took off when it
 * did. Null before a check has given both scores.
 */
export const confidenceExplained = (stored: {
  faithfulness: number | null;
  coverage: number | null;
  retrieval: Pick<RetrievalQuality, 'mean_included_similarity'> | null;
}): Pick<QualityConfidenceResult, 'level' | 'reason'> | null => {
  if (stored.faithfulness === null || stored.coverage === null) return null;
  const { level, reason } = qualityConfidence({
    faithfulness: stored.faithfulness,
    coverage: stored.coverage,
    retrievalSimilarity: retrievalSignal(stored.retrieval),
  });
  return { level, reason };
};
