/**
 * The retrieval similarity floor as a stage sets it (RETRIEVAL_MIN_SIMILARITY, CDK context
 * retrievalMinSimilarity): a rule of its own, with no runtime dependency, so the synth (lib/stage-config.ts)
 * and the runtime (config.ts) check a value alike and a malformed one fails the synth.
 */
export const parseMinSimilarity = (raw: string): number => {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new Error(`the retrieval similarity floor must be a number from 0 to 1, got '${raw}'`);
  }
  return value;
};
