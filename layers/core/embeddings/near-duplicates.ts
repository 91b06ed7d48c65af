/**
 * Near-duplicate passages (pure): the same passage in many e-mails, forwards and attachments is one passage. Two
 * chunks are near-duplicates when the Jaccard similarity of their word 2-shingles (pairs of words), over text normalised for case,
 * accents, punctuation and quote markers, is at least NEAR_DUPLICATE_JACCARD (0.9: one or two words changed in a
 * passage of a hundred; docs/retrieval.md measures the rule). Candidates are found without comparing every pair: a
 * MinHash signature of the shingles, cut into LSH bands, gives each chunk 16 keys, and two chunks share a key with
 * probability 1 − (1 − J⁴)¹⁶ — above 0.99999 at J = 0.9, below 0.001 at J = 0.2 (unrelated passages share a few common word pairs at most) — so a lookup by key (a GIN index
 * on text_chunks.lsh_bands) finds the duplicates of a new chunk, and the exact Jaccard decides.
 */

import { ifUsed } from '#core/if-used';

export const NEAR_DUPLICATE_JACCARD = 0.9;

/**
 * Versions of a passage (more changed than a near-duplicate: drafts, a template filled in again) stay chunks of their
 * own but reach the HNSW graph through one node: a chunk sharing an LSH key with a placed chunk goes behind that
 * chunk's node when their vectors' cosine is at least this (chunk-claims.ts placeStoredVectors; retrieval.ts expands
 * the nodes it finds). On the bench's clustered corpus (5 % of the words changed) versions are 0.86–0.98 from the
 * first, median 0.94; chunks of one topic 0.24–0.69 (docs/retrieval.md).
 */
export const GRAPH_ANCHOR_COSINE = 0.9;

/**
 * Math.imul held at module scope: a global read in the hot loops below is slow wherever the global object is a
 * vm context's (jest runs every test file in one), 37 times slower for lshBands there.
 */
const { imul } = Math;

const BANDS = 16;
const ROWS = 4;
const SHINGLE_WORDS = 2;

/** Lower case, accents off, punctuation and quote markers (">") out: what is left is the words. */
export const wordsOf = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** 32-bit FNV-1a of a string. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/** murmur3's finaliser: spreads a 32-bit value over all 32 bits. */
const mix = (value: number): number => {
  let h = value;
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

/** The hashed word 2-shingles of a text (its word itself when it has one). */
export const shinglesOf = (text: string): Set<number> => {
  const words = wordsOf(text);
  const size = Math.min(SHINGLE_WORDS, words.length);
  const shingles = new Set<number>();
  for (let i = 0; i + size <= words.length && size > 0; i++) shingles.add(fnv1a(words.slice(i, i + size).join(' ')));
  return shingles;
};

export const jaccard = (a: ReadonlySet<number>, b: ReadonlySet<number>): number => {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
};

const SEEDS = /* @__PURE__ */ ifUsed(() => Array.from({ length: BANDS * ROWS }, (_, i) => mix(0x9e3779b9 ^ imul(i + 1, 0x85ebca6b))));

/**
 * The chunk's LSH keys: one per band, a hash of the band's MinHash values and the band's number, as signed 32-bit
 * integers (PostgreSQL's int); empty for a text without words (it groups with nothing).
 */
export const lshBands = (shingles: ReadonlySet<number>): number[] => {
  if (shingles.size === 0) return [];
  const signature = SEEDS.map((seed) => {
    let min = 0xffffffff;
    for (const shingle of shingles) {
      const h = mix(shingle ^ seed);
      if (h < min) min = h;
    }
    return min;
  });
  return Array.from({ length: BANDS }, (_, band) => {
    let hash = mix(band + 1);
    for (let row = 0; row < ROWS; row++) hash = mix(hash ^ signature[band * ROWS + row]!);
    return hash | 0;
  });
};

export interface GroupCandidate {
  id: string;
  shingles: ReadonlySet<number>;
  bands: readonly number[];
}

/**
 * The representative a new chunk joins: of the candidates sharing a band with it, the most similar at or above the
 * threshold (the earliest of equals, so a group's members all point at its first chunk), or undefined.
 */
export const representativeFor = (
  chunk: { shingles: ReadonlySet<number>; bands: readonly number[] },
  candidates: readonly GroupCandidate[],
  threshold: number = NEAR_DUPLICATE_JACCARD,
): string | undefined => {
  const keys = new Set(chunk.bands);
  let best: { id: string; similarity: number } | undefined;
  for (const candidate of candidates) {
    if (!candidate.bands.some((band) => keys.has(band))) continue;
    const similarity = jaccard(chunk.shingles, candidate.shingles);
    if (similarity >= threshold && (!best || similarity > best.similarity)) best = { id: candidate.id, similarity };
  }
  return best?.id;
};
