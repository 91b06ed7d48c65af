/**
 * Retrieval similarity bands (SPEC "Limits"): 85 % and above high relevance (green); 70-84 %
 * relevant (yellow); 60-69 % somewhat relevant (orange); below 60 % low relevance (gray).
 *
 * Edges: the band is read from the whole percent that is displayed (see percent.ts: nearest integer,
 * halves up), because the spec states the bands in whole percents and the UI shows whole percents.
 * So 0.8449 → 84 % → relevant, 0.845 → 85 % → high, 0.6949 → 69 % → somewhat, 0.595 → 60 % → somewhat.
 *
 * Domain: cosine similarity is mathematically in [-1, 1], and pgvector's `1 - (a <=> b)` can be
 * negative or overshoot 1 by float noise; such rows are real data, so they are accepted (a tolerance of
 * 1e-9 beyond ±1) and shown clamped to 0-100 %. NaN, infinities and anything further out are a bug
 * upstream and throw a RangeError.
 *
 * Pure: no I/O, no clock, no environment.
 */
import { assertInRange, toPercent } from './percent';

export const SIMILARITY_BAND_KEYS = ['high', 'relevant', 'somewhat', 'low'] as const;
export type SimilarityBandKey = (typeof SIMILARITY_BAND_KEYS)[number];
type SimilarityBandLabel = 'High relevance' | 'Relevant' | 'Somewhat relevant' | 'Low relevance';
type SimilarityBandColor = 'green' | 'yellow' | 'orange' | 'gray';

export interface SimilarityBand {
  key: SimilarityBandKey;
  label: SimilarityBandLabel;
  color: SimilarityBandColor;
  /** The whole percent displayed, 0-100; the band is derived from it. */
  percent: number;
}

/** The bands, best first; a similarity falls in the first band whose `min_percent` it reaches. */
export const SIMILARITY_BANDS: ReadonlyArray<Omit<SimilarityBand, 'percent'> & { min_percent: number }> = [
  { key: 'high', label: 'High relevance', color: 'green', min_percent: 85 },
  { key: 'relevant', label: 'Relevant', color: 'yellow', min_percent: 70 },
  { key: 'somewhat', label: 'Somewhat relevant', color: 'orange', min_percent: 60 },
  { key: 'low', label: 'Low relevance', color: 'gray', min_percent: 0 },
];

/** Float noise allowed beyond ±1 (a dot product of unit vectors can come out as 1.0000000000000002). */
const TOLERANCE = 1e-9;

/** Validates a cosine similarity; throws RangeError for NaN, ±Infinity or values outside [-1, 1]. */
export const assertSimilarity = (similarity: number, name = 'similarity'): number =>
  assertInRange(name, similarity, -1 - TOLERANCE, 1 + TOLERANCE);

/** The displayed percent of a similarity: clamped to 0..1, then rounded as percent.ts says. */
export const similarityPercent = (similarity: number): number => toPercent(Math.min(1, Math.max(0, assertSimilarity(similarity))));

export const similarityBand = (similarity: number): SimilarityBand => {
  const percent = similarityPercent(similarity);
  // The last band has min_percent 0, so find() always succeeds for a percent in 0..100.
  const { key, label, color } = SIMILARITY_BANDS.find((band) => percent >= band.min_percent)!;
  return { key, label, color, percent };
};

/** The retrieval quality stats stored on an analysis (`retrieval_quality`); null where there is no data. */
export interface RetrievalQuality {
  /** Chunks considered, included and excluded (SPEC: "total chunks retrieved, included, excluded"). */
  total: number;
  included: number;
  excluded: number;
  /** Mean and best similarity over every chunk considered; null when none was. */
  mean_similarity: number | null;
  max_similarity: number | null;
  /** The weakest chunk that made it into the context; null when none was included. */
  min_included_similarity: number | null;
  /**
   * Mean similarity of the included chunks, i.e. of the context the AI actually used: the input that
   * softens quality confidence (confidence.ts). Null when none was included.
   */
  mean_included_similarity: number | null;
  /** How many chunks (of all considered) fall in each displayed band. */
  band_counts: Record<SimilarityBandKey, number>;
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * Stats over the chunks considered for one analysis. `similarities[i]` and `included[i]` describe the
 * same chunk; arrays of different lengths or an invalid similarity throw a RangeError.
 */
export const retrievalQuality = (similarities: readonly number[], included: readonly boolean[]): RetrievalQuality => {
  if (similarities.length !== included.length) {
    throw new RangeError(`similarities (${similarities.length}) and included (${included.length}) must have the same length`);
  }
  const bandCounts: Record<SimilarityBandKey, number> = { high: 0, relevant: 0, somewhat: 0, low: 0 };
  const used: number[] = [];
  similarities.forEach((similarity, i) => {
    bandCounts[similarityBand(similarity).key] += 1; // also validates the similarity
    if (included[i]) used.push(similarity);
  });
  return {
    total: similarities.length,
    included: used.length,
    excluded: similarities.length - used.length,
    mean_similarity: mean(similarities),
    max_similarity: similarities.length === 0 ? null : similarities.reduce((a, b) => Math.max(a, b)),
    min_included_similarity: used.length === 0 ? null : used.reduce((a, b) => Math.min(a, b)),
    mean_included_similarity: mean(used),
    band_counts: bandCounts,
  };
};
