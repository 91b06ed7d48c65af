/** held at module scope: a global read in a hot loop is slow in jest, whose test files run in vm contexts */
const { imul } = Math;

/** mulberry32: a small deterministic generator, so a corpus, a fuzz case or a failure is the same on every run. */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
